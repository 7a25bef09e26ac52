"""Where each model lives: the control database or a region database, and the router between them."""
