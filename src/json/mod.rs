//! JSON data semantics the validator needs beyond `serde_json::Value`'s own.
//!
//! JSON Schema compares values by the JSON data model, not by representation: `1` and
//! `1.0` are the same number (and both are integers), object key order never matters,
//! and number checks must be exact where `f64` arithmetic is not. This module owns those
//! rules so that every keyword applies them the same way.

pub(crate) mod decimal;
pub(crate) mod equal;
pub(crate) mod number;
pub(crate) mod object;
pub(crate) mod pointer;
pub(crate) mod text;
pub(crate) mod types;
pub(crate) mod view;
