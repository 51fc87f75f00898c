//! The errors a model reads once (`iter_listed_errors`, and `invalid_arguments_text` on
//! them), pinned on the tagged unions that MCP servers' schema generators emit: serde's
//! internally tagged enums through schemars 1.x (rmcp), pydantic v2 discriminated unions
//! (the Python SDK's FastMCP), and zod discriminated unions through zod-to-json-schema
//! (the TypeScript SDK on zod 3) and zod 4's `z.toJSONSchema`. Each schema is written as
//! that tool emits it. For each: a circle sent without its radius is the union's summary
//! and the circle branch's one error, nothing of the square branch and nothing twice; a
//! missing tag and a wrong one are one line naming the tags; `iter_errors` still gives
//! every branch's errors. A property test holds the listing to `iter_errors` on random
//! instances.

use mcp_jsonschema::mcp::{invalid_arguments_text, Role, ToolSchema};
use mcp_jsonschema::{ValidationError, ValidationErrorKind as Kind};
use proptest::prelude::*;
use serde_json::{json, Value};

/// `DrawArgs { shape: Shape }` with `#[serde(tag = "type")] enum Shape { Circle { radius:
/// f64 }, Square { side: f64 } }`, as rmcp's `schema_for_type` gets it from schemars 1.x
/// (2020-12, the enum under `$defs`, `oneOf` of objects, the tag a `const` string listed
/// after the fields and required first).
fn schemars() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"shape": {"$ref": "#/$defs/Shape"}},
        "required": ["shape"],
        "$defs": {
            "Shape": {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {
                            "radius": {"type": "number", "format": "double"},
                            "type": {"type": "string", "const": "Circle"}
                        },
                        "required": ["type", "radius"]
                    },
                    {
                        "type": "object",
                        "properties": {
                            "side": {"type": "number", "format": "double"},
                            "type": {"type": "string", "const": "Square"}
                        },
                        "required": ["type", "side"]
                    }
                ]
            }
        }
    })
}

/// FastMCP's arguments model for `def draw(shape: Annotated[Circle | Square,
/// Field(discriminator="kind")])`, pydantic v2's `model_json_schema()`: `oneOf` of
/// `$ref`s beside the OpenAPI `discriminator` keyword, `Literal` tags as `const` strings
/// with a title, and an `Optional[Point]` (`anyOf` with null) in the circle.
fn pydantic() -> Value {
    json!({
        "$defs": {
            "Circle": {
                "properties": {
                    "kind": {"const": "circle", "title": "Kind", "type": "string"},
                    "radius": {"title": "Radius", "type": "number"},
                    "center": {"anyOf": [{"$ref": "#/$defs/Point"}, {"type": "null"}], "default": null}
                },
                "required": ["kind", "radius"],
                "title": "Circle",
                "type": "object"
            },
            "Point": {
                "properties": {"x": {"title": "X", "type": "number"}, "y": {"title": "Y", "type": "number"}},
                "required": ["x", "y"],
                "title": "Point",
                "type": "object"
            },
            "Square": {
                "properties": {
                    "kind": {"const": "square", "title": "Kind", "type": "string"},
                    "side": {"title": "Side", "type": "number"}
                },
                "required": ["kind", "side"],
                "title": "Square",
                "type": "object"
            }
        },
        "properties": {
            "shape": {
                "discriminator": {
                    "mapping": {"circle": "#/$defs/Circle", "square": "#/$defs/Square"},
                    "propertyName": "kind"
                },
                "oneOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}],
                "title": "Shape"
            }
        },
        "required": ["shape"],
        "title": "drawArguments",
        "type": "object"
    })
}

/// pydantic's own discriminated union example (`Cat | Dog | Lizard` on `pet_type`, the
/// lizard tagged by `Literal['reptile', 'lizard']`, an `enum`), four branches with a
/// fourth (`Fish`) so that the union is compiled to a switch on the tag.
fn pydantic_pets() -> Value {
    let pet = |name: &str, tag: Value, field: &str, kind: &str| {
        json!({
            "properties": {
                "pet_type": tag,
                field: {"title": field, "type": kind}
            },
            "required": ["pet_type", field],
            "title": name,
            "type": "object"
        })
    };
    json!({
        "$defs": {
            "Cat": pet("Cat", json!({"const": "cat", "title": "Pet Type", "type": "string"}), "meows", "integer"),
            "Dog": pet("Dog", json!({"const": "dog", "title": "Pet Type", "type": "string"}), "barks", "number"),
            "Fish": pet("Fish", json!({"const": "fish", "title": "Pet Type", "type": "string"}), "fins", "integer"),
            "Lizard": pet("Lizard", json!({"enum": ["reptile", "lizard"], "title": "Pet Type", "type": "string"}), "scales", "boolean")
        },
        "properties": {
            "pet": {
                "discriminator": {
                    "mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog", "fish": "#/$defs/Fish",
                        "lizard": "#/$defs/Lizard", "reptile": "#/$defs/Lizard"},
                    "propertyName": "pet_type"
                },
                "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}, {"$ref": "#/$defs/Fish"}, {"$ref": "#/$defs/Lizard"}],
                "title": "Pet"
            },
            "n": {"title": "N", "type": "integer"}
        },
        "required": ["pet", "n"],
        "title": "Model",
        "type": "object"
    })
}

/// `z.object({shape: z.discriminatedUnion("kind", [z.object({kind: z.literal("circle"),
/// radius: z.number()}), z.object({kind: z.literal("square"), side: z.number()})])})`
/// through zod-to-json-schema (draft-07, `anyOf`, closed objects), as the TypeScript SDK
/// on zod 3 lists it.
fn zod3() -> Value {
    let variant = |tag: &str, field: &str| {
        json!({
            "type": "object",
            "properties": {"kind": {"type": "string", "const": tag}, field: {"type": "number"}},
            "required": ["kind", field],
            "additionalProperties": false
        })
    };
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"shape": {"anyOf": [variant("circle", "radius"), variant("square", "side")]}},
        "required": ["shape"],
        "additionalProperties": false
    })
}

/// The same through zod 4's `z.toJSONSchema` (2020-12; a discriminated union is
/// exclusive, so `oneOf`).
fn zod4() -> Value {
    let mut schema = zod3();
    schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    let shape = &mut schema["properties"]["shape"];
    *shape = json!({"oneOf": shape["anyOf"].take()});
    schema
}

/// The text a call of tool `draw` with `arguments` is answered with.
fn answer(schema: &Value, arguments: &Value) -> String {
    let tool = ToolSchema::input(schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
    let errors: Vec<ValidationError> = tool.iter_listed_errors(arguments).collect();
    invalid_arguments_text("draw", &errors)
}

/// `answer`, and the same text from `arguments_errors`, the rmcp adapter's way in.
fn answered(schema: &Value, arguments: Value) -> String {
    let text = answer(schema, &arguments);
    let tool = ToolSchema::input(schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
    let mut held = arguments.as_object().cloned();
    let errors = tool.arguments_errors(&mut held);
    assert_eq!(invalid_arguments_text("draw", &errors), text);
    text
}

#[test]
fn a_serde_tagged_enum_through_schemars() {
    let schema = schemars();
    assert_eq!(
        answered(&schema, json!({"shape": {"type": "Circle"}})),
        "invalid arguments for tool \"draw\":\n\
         /shape: {\"type\":\"Circle\"} is not valid under any of the schemas in oneOf; the closest is #0\n  \
         /shape: missing required property \"radius\""
    );
    assert_eq!(
        answered(&schema, json!({"shape": {"radius": 2}})),
        "invalid arguments for tool \"draw\":\n\
         /shape: missing required property \"type\": expected one of \"Circle\", \"Square\""
    );
    assert_eq!(
        answered(&schema, json!({"shape": {"type": "Triangle", "side": 2}})),
        "invalid arguments for tool \"draw\":\n\
         /shape/type: expected one of \"Circle\", \"Square\", got \"Triangle\""
    );
    // Not a string at all: the same line.
    assert_eq!(
        answered(&schema, json!({"shape": {"type": 3, "radius": 2}})),
        "invalid arguments for tool \"draw\":\n\
         /shape/type: expected one of \"Circle\", \"Square\", got 3"
    );
    // Masked, the tag sent is not quoted; the tags, the schema's own, are.
    let options = mcp_jsonschema::mcp::profile().with_masked_errors(true);
    let masked = ToolSchema::new(Role::Input, &schema, &options).unwrap();
    let wrong = json!({"shape": {"type": "s3cr3t"}});
    let errors: Vec<ValidationError> = masked.iter_listed_errors(&wrong).collect();
    assert_eq!(
        invalid_arguments_text("draw", &errors),
        "invalid arguments for tool \"draw\":\n\
         /shape/type: expected one of \"Circle\", \"Square\", got string"
    );
    // The square's own error on a field.
    assert_eq!(
        answered(&schema, json!({"shape": {"type": "Square", "side": "2"}})),
        "invalid arguments for tool \"draw\":\n\
         /shape: {\"side\":\"2\",\"type\":\"Square\"} is not valid under any of the schemas in oneOf; \
         the closest is #1\n  \
         /shape/side: expected number, got string \"2\"; send the number itself, not a JSON-encoded string"
    );
}

#[test]
fn a_pydantic_discriminated_union() {
    let schema = pydantic();
    assert_eq!(
        answered(&schema, json!({"shape": {"kind": "circle"}})),
        "invalid arguments for tool \"draw\":\n\
         /shape: {\"kind\":\"circle\"} is not valid under any of the schemas in oneOf; the closest is #0\n  \
         /shape: missing required property \"radius\""
    );
    assert_eq!(
        answered(&schema, json!({"shape": {"side": 1}})),
        "invalid arguments for tool \"draw\":\n\
         /shape: missing required property \"kind\": expected one of \"circle\", \"square\""
    );
    assert_eq!(
        answered(&schema, json!({"shape": {"kind": "Circle", "radius": 1}})),
        "invalid arguments for tool \"draw\":\n\
         /shape/kind: expected one of \"circle\", \"square\", got \"Circle\""
    );
    // A union inside the closest branch is explained alike: its own closest branch.
    assert_eq!(
        answered(&schema, json!({"shape": {"kind": "circle", "radius": 1, "center": {"x": 0}}})),
        "invalid arguments for tool \"draw\":\n\
         /shape: {\"center\":{\"x\":0},\"kind\":\"circle\",\"radius\":1} is not valid under any of the \
         schemas in oneOf; the closest is #0\n  \
         /shape/center: {\"x\":0} is not valid under any of the schemas in anyOf; the closest is #0\n    \
         /shape/center: missing required property \"y\""
    );
}

#[test]
fn a_pydantic_union_of_four_compiled_to_a_switch() {
    let schema = pydantic_pets();
    let tool = ToolSchema::input(&schema).unwrap();
    assert!(format!("{:?}", tool.validator()).contains("Switch("));
    assert_eq!(
        answered(&schema, json!({"pet": {"pet_type": "lizard"}, "n": 1})),
        "invalid arguments for tool \"draw\":\n\
         /pet: {\"pet_type\":\"lizard\"} is not valid under any of the schemas in oneOf; the closest is #3\n  \
         /pet: missing required property \"scales\""
    );
    // Every tag once, an `enum`'s included, in the order of the branches.
    assert_eq!(
        answered(&schema, json!({"pet": {"barks": 1}})),
        "invalid arguments for tool \"draw\":\n\
         (root): missing required property \"n\"\n\
         /pet: missing required property \"pet_type\": expected one of \"cat\", \"dog\", \"fish\", \
         \"reptile\", \"lizard\""
    );
    assert_eq!(
        answered(&schema, json!({"pet": {"pet_type": "bird"}, "n": 1})),
        "invalid arguments for tool \"draw\":\n\
         /pet/pet_type: expected one of \"cat\", \"dog\", \"fish\", \"reptile\", \"lizard\", got \"bird\""
    );
}

#[test]
fn zod_discriminated_unions() {
    for schema in [zod3(), zod4()] {
        let keyword = if schema["properties"]["shape"]["oneOf"].is_array() {
            "oneOf"
        } else {
            "anyOf"
        };
        assert_eq!(
            answered(&schema, json!({"shape": {"kind": "circle"}})),
            format!(
                "invalid arguments for tool \"draw\":\n\
                 /shape: {{\"kind\":\"circle\"}} is not valid under any of the schemas in {keyword}; \
                 the closest is #0\n  \
                 /shape: missing required property \"radius\""
            )
        );
        assert_eq!(
            answered(&schema, json!({"shape": {"radius": 1}})),
            "invalid arguments for tool \"draw\":\n\
             /shape: missing required property \"kind\": expected one of \"circle\", \"square\""
        );
        assert_eq!(
            answered(&schema, json!({"shape": {"kind": "oval", "radius": 1}})),
            "invalid arguments for tool \"draw\":\n\
             /shape/kind: expected one of \"circle\", \"square\", got \"oval\""
        );
        // The closed circle's two problems, once each.
        assert_eq!(
            answered(&schema, json!({"shape": {"kind": "circle", "side": 1}})),
            format!(
                "invalid arguments for tool \"draw\":\n\
                 /shape: {{\"kind\":\"circle\",\"side\":1}} is not valid under any of the schemas in \
                 {keyword}; the closest is #0\n  \
                 /shape: missing required property \"radius\"\n  \
                 /shape/side: property \"side\" is not allowed"
            )
        );
    }
}

#[test]
fn iter_errors_still_gives_every_branch() {
    let cases = [
        (schemars(), json!({"shape": {"type": "Circle"}}), "side"),
        (pydantic(), json!({"shape": {"kind": "circle"}}), "side"),
        (zod3(), json!({"shape": {"kind": "circle"}}), "side"),
        (zod4(), json!({"shape": {"kind": "circle"}}), "side"),
    ];
    for (schema, instance, square_field) in cases {
        let tool = ToolSchema::input(&schema).unwrap();
        let all: Vec<ValidationError> = tool.iter_errors(&instance).collect();
        let square = format!("missing required property \"{square_field}\"");
        assert!(all[0].kind() == Kind::OneOf || all[0].kind() == Kind::AnyOf);
        // The circle's error (in the summary's context and after it), the square's
        // missing field and its tag.
        assert!(all.iter().any(|e| e.message() == square), "{all:?}");
        assert!(all.iter().any(|e| e.kind() == Kind::Const), "{all:?}");
        assert_eq!(all[0].context().len(), 1, "{all:?}");
        let listed: Vec<ValidationError> = tool.iter_listed_errors(&instance).collect();
        assert_eq!(listed.len(), 1);
        assert!(listed[0].lines().all(|(_, e)| e.message() != square));
    }
}

/// What tells errors apart across the two listings (a nested union's message names its
/// closest branch only where it is explained).
fn key(error: &ValidationError) -> (Kind, String, String) {
    (
        error.kind(),
        error.instance_location().to_string(),
        error.schema_location().to_string(),
    )
}

/// Tool arguments near the shapes above: a shape object of some of the fields, tags and
/// wrong values.
fn arguments() -> impl Strategy<Value = Value> {
    let value = prop_oneof![
        Just(json!("circle")),
        Just(json!("square")),
        Just(json!("Circle")),
        Just(json!("Square")),
        Just(json!(1)),
        Just(json!("2")),
        Just(json!(null)),
        Just(json!({"x": 1})),
        Just(json!({"x": 1, "y": 2})),
    ];
    let names = ["kind", "type", "radius", "side", "center", "extra"];
    let shape = proptest::collection::vec((0..names.len(), value), 0..5).prop_map(move |fields| {
        Value::Object(
            (fields.into_iter())
                .map(|(name, value)| (names[name].to_string(), value))
                .collect(),
        )
    });
    prop_oneof![
        shape.clone().prop_map(|shape| json!({"shape": shape})),
        shape.prop_map(|shape| json!({"shape": shape, "n": "x"})),
        Just(json!({})),
        Just(json!({"shape": 3})),
    ]
}

/// Every error (as [`key`]s) of the union `line` on its own value: `iter_errors` of a
/// schema whose root refers to the union's subschema, its `$defs` kept in place so that
/// schema locations stay those of `schema`, instance locations put back under the
/// union's. `iter_errors` sums up a union inside another union's explanation without
/// explaining it (explaining every level again multiplies the work by the nesting
/// depth); the listing explains the closest branch's unions too, and this is what they
/// are held to.
fn union_errors(
    schema: &Value,
    arguments: &Value,
    line: &ValidationError,
) -> Vec<(Kind, String, String)> {
    let location = line.schema_location();
    let Some(subschema) = location.rsplit_once('/').map(|(at, _)| at) else {
        return Vec::new();
    };
    assert!(
        subschema.starts_with("/$defs/"),
        "a nested union outside $defs ({location}): extend union_errors"
    );
    let root = json!({"$defs": schema["$defs"], "$ref": format!("#{subschema}")});
    let value = &arguments.pointer(line.instance_location()).unwrap();
    let validator = mcp_jsonschema::Validator::new(&root).unwrap();
    (validator.iter_errors(value))
        .map(|e| {
            let at = format!("{}{}", line.instance_location(), e.instance_location());
            (e.kind(), at, e.schema_location().to_string())
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The listing is empty exactly when the arguments conform, says nothing twice, and
    /// each of its lines is one of `iter_errors`' (or, for a tag, the failed union's; or,
    /// in the explanation of a union nested in another's, one of that union's errors on
    /// its value).
    #[test]
    fn the_listing_is_iter_errors_each_once(arguments in arguments()) {
        for schema in [schemars(), pydantic(), zod3(), zod4()] {
            let tool = ToolSchema::input(&schema).unwrap();
            let all: Vec<ValidationError> = tool.iter_errors(&arguments).collect();
            let listed: Vec<ValidationError> = tool.iter_listed_errors(&arguments).collect();
            prop_assert_eq!(listed.is_empty(), tool.is_valid(&arguments));
            prop_assert_eq!(listed.is_empty(), all.is_empty());
            let all_keys: Vec<_> = all.iter().map(key).collect();
            let mut seen = Vec::new();
            // The errors of the unions enclosing the current line, one entry per depth.
            let mut enclosing: Vec<Vec<(Kind, String, String)>> = Vec::new();
            for (depth, line) in listed.iter().flat_map(ValidationError::lines) {
                let k = key(line);
                prop_assert!(!seen.contains(&k), "twice: {} in {:?}", line, listed);
                let tag = matches!(line.kind(), Kind::Required | Kind::Enum)
                    && line.keyword().is_some_and(|k| k == "oneOf" || k == "anyOf");
                let union_failed = all.iter().any(|e| {
                    e.schema_location() == line.schema_location()
                        && line.instance_location().starts_with(e.instance_location())
                });
                enclosing.truncate(depth);
                let explained = enclosing.iter().any(|errors| errors.contains(&k));
                prop_assert!(
                    all_keys.contains(&k) || (tag && union_failed) || explained,
                    "{} not among {:?}", line, all
                );
                let nested = depth > 0 && !line.context().is_empty();
                enclosing.push(match nested {
                    true => union_errors(&schema, &arguments, line),
                    false => Vec::new(),
                });
                seen.push(k);
            }
        }
    }
}

/// The case the property test above first found: the closest circle's `center` fails
/// its own `anyOf`, which the listing explains (the point's missing `y`) where
/// `iter_errors` only sums it up.
#[test]
fn a_union_in_the_closest_branch_is_explained() {
    let tool = ToolSchema::input(&pydantic()).unwrap();
    let arguments = json!({"shape": {"center": {"x": 1}, "kind": "circle"}});
    let listed: Vec<ValidationError> = tool.iter_listed_errors(&arguments).collect();
    let lines: Vec<(usize, String)> = (listed.iter().flat_map(ValidationError::lines))
        .map(|(depth, e)| {
            let (at, message) = (e.instance_location(), e.message());
            (depth, format!("{at}: {message} at {}", e.schema_location()))
        })
        .collect();
    assert_eq!(
        lines,
        [
            (
                0,
                "/shape: {\"center\":{\"x\":1},\"kind\":\"circle\"} is not valid under any of the \
                 schemas in oneOf; the closest is #0 at /properties/shape/oneOf"
                    .to_string()
            ),
            (
                1,
                "/shape: missing required property \"radius\" at /$defs/Circle/required"
                    .to_string()
            ),
            (
                1,
                "/shape/center: {\"x\":1} is not valid under any of the schemas in anyOf; the \
                 closest is #0 at /$defs/Circle/properties/center/anyOf"
                    .to_string()
            ),
            (
                2,
                "/shape/center: missing required property \"y\" at /$defs/Point/required"
                    .to_string()
            ),
        ]
    );
    let nested = listed[0].lines().nth(2).unwrap().1;
    let point = union_errors(&pydantic(), &arguments, nested);
    assert!(
        point.contains(&key(listed[0].lines().nth(3).unwrap().1)),
        "{point:?}"
    );
    // iter_errors sums the nested union up, and says nothing of the point.
    let all: Vec<ValidationError> = tool.iter_errors(&arguments).collect();
    assert!(
        all.iter()
            .all(|e| !e.schema_location().starts_with("/$defs/Point")),
        "{all:?}"
    );
}

/// Finding a union's tag is paid from the explanations' budget, which every explanation
/// of a run shares: once the explanations of many failed shapes have spent it, a shape
/// without its tag is listed as the union's bare summary, never wrongly and never not
/// at all.
#[test]
fn a_tag_out_of_budget_leaves_the_summary() {
    let mut schema = schemars();
    schema["properties"] = json!({"shapes": {"type": "array", "items": {"$ref": "#/$defs/Shape"}}});
    schema["required"] = json!([]);
    let validator = mcp_jsonschema::Validator::new(&schema).unwrap();
    let listed = |shapes: Vec<Value>| -> Vec<String> {
        let instance = json!({ "shapes": shapes });
        (validator.iter_listed_errors(&instance))
            .map(|e| e.to_string())
            .collect()
    };
    let untagged = json!({"radius": 2});
    let tag_line = "missing required property \"type\": expected one of \"Circle\", \"Square\"";
    assert_eq!(
        listed(vec![json!({"type": "Circle"}), untagged.clone()])[1],
        format!("/shapes/1: {tag_line}")
    );
    let mut shapes = vec![json!({"type": "Circle"}); 1000];
    shapes.push(untagged);
    let lines = listed(shapes);
    assert_eq!(lines.len(), 1001);
    assert_eq!(
        lines[1000],
        "/shapes/1000: {\"radius\":2} is not valid under any of the schemas in oneOf"
    );
    assert!(
        lines[0].ends_with("the closest is #0\n  /shapes/0: missing required property \"radius\"")
    );
}
