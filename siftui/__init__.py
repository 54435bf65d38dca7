"""siftui: see exactly what an LLM agent receives when it reads a PDF."""

__version__ = "0.1.0"
