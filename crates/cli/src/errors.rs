//! Which of a validator's errors the command line lists: a failed `anyOf` / `oneOf`
//! stands for its branches, shown as its summary followed by the errors of its closest
//! branch (the library's `context`), so that each problem is listed once.

use mcp_jsonschema::ValidationError;

/// The errors to list, in order: every error but those inside a failed union listed
/// before it (below it in the schema, or one of its context's: a branch reached through
/// a `$ref` is located where its target is), each union followed by its context.
pub(crate) fn listed(errors: impl Iterator<Item = ValidationError>) -> Vec<ValidationError> {
    let mut listed: Vec<ValidationError> = Vec::new();
    let mut unions: Vec<ValidationError> = Vec::new();
    for error in errors {
        let shown = |union: &ValidationError| {
            inside(&error, union) || union.context().iter().any(|e| same(e, &error))
        };
        if unions.iter().any(shown) {
            continue;
        }
        let context = error.context().to_vec();
        if !context.is_empty() {
            unions.push(error.clone());
        }
        listed.push(error);
        listed.extend(context);
    }
    listed
}

/// Whether `error` is one of the branch errors of `union`: below it in the schema and at
/// or below it in the instance.
fn inside(error: &ValidationError, union: &ValidationError) -> bool {
    let below = |path: &str, parent: &str| {
        path.strip_prefix(parent)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    let schema = error.schema_location();
    schema.len() > union.schema_location().len()
        && below(schema, union.schema_location())
        && below(error.instance_location(), union.instance_location())
}

/// Whether two errors say the same thing at the same places.
fn same(a: &ValidationError, b: &ValidationError) -> bool {
    a.kind() == b.kind()
        && a.instance_location() == b.instance_location()
        && a.schema_location() == b.schema_location()
        && a.message() == b.message()
}
