//! Stage 2 unit tests on models built in code (spans, fixes, limits).
