//! Tests of the IDE functions.
