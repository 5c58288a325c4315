//! Share strings: a pack as a compact, URL-safe text and back.
