"""Helpers the tests of every folder share: documents they make, and drivers for the app and CLI."""
