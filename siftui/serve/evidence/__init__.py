"""The evidence tools served: one session per connection, with its files, images and OCR."""
