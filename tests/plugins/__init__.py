"""Test plug-ins: editions kept under tests/, each a package with its own pyproject.toml."""
