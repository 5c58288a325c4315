//! Canonical pack JSON: writing it from the model and reading pack JSON into the model.
