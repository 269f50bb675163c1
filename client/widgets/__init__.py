"""Small reusable widgets shared by every game's table screen."""
