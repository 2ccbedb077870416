"""HTTP clients that send a rendered request to a provider and parse its answer."""
