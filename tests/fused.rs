//! Differential tests for the compiler's fused nodes: each fused form must give the same
//! verdict as the plain sequence it replaces. The plain form is obtained by wrapping the
//! parts so the fusion no longer applies (`{"anyOf": [S]}` is equivalent to `S` but hides
//! `S`'s structure from the compiler's analysis).

use mcp_jsonschema::Validator;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{json, Value};

/// A discriminated `oneOf`/`anyOf` over five variants, told apart by `kind`, with a
/// variant that says nothing about `kind` and one reached through a `$ref`.
fn variants() -> Vec<Value> {
    vec![
        json!({"properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]}),
        json!({"properties": {"kind": {"type": "string", "enum": ["square", "box"]}, "side": {"type": "number"}}, "required": ["side"]}),
        json!({"$ref": "#/$defs/triangle"}),
        json!({"type": "object", "properties": {"kind": {"const": "circle"}, "label": {"type": "string"}}}),
        json!({"required": ["anything"]}),
    ]
}

fn schema(keyword: &str, hide: bool) -> Value {
    let branches: Vec<Value> = variants()
        .into_iter()
        .map(|branch| {
            if hide {
                json!({"anyOf": [branch]})
            } else {
                branch
            }
        })
        .collect();
    json!({
        "$defs": {"triangle": {"properties": {"kind": {"const": "triangle"}, "a": {"type": "integer"}}, "required": ["kind"]}},
        keyword: branches,
        "unevaluatedProperties": {"type": ["number", "string", "boolean"]}
    })
}

fn instance() -> impl Strategy<Value = Value> {
    let kind = prop_oneof![
        Just(None),
        Just(Some(json!("circle"))),
        Just(Some(json!("square"))),
        Just(Some(json!("box"))),
        Just(Some(json!("triangle"))),
        Just(Some(json!("hexagon"))),
        Just(Some(json!("disc"))),
        Just(Some(json!(7))),
    ];
    let field = |name: &'static str| {
        prop_oneof![
            Just(None),
            Just(Some(json!(1))),
            Just(Some(json!(2.5))),
            Just(Some(json!("x"))),
            Just(Some(json!(null)))
        ]
        .prop_map(move |v| v.map(|v| (name, v)))
    };
    (
        kind,
        field("r"),
        field("side"),
        field("a"),
        field("label"),
        field("anything"),
    )
        .prop_map(|(kind, r, side, a, label, anything)| {
            let mut map = serde_json::Map::new();
            if let Some(kind) = kind {
                map.insert("kind".into(), kind);
            }
            for (name, value) in [r, side, a, label, anything].into_iter().flatten() {
                map.insert(name.into(), value);
            }
            Value::Object(map)
        })
}

proptest! {
    #[test]
    fn a_discriminated_one_of_agrees_with_the_plain_one(instance in instance()) {
        for keyword in ["oneOf", "anyOf"] {
            let fused = Validator::new(&schema(keyword, false)).unwrap();
            let plain = Validator::new(&schema(keyword, true)).unwrap();
            prop_assert_eq!(fused.is_valid(&instance), plain.is_valid(&instance), "{} {}", keyword, instance);
            prop_assert_eq!(fused.validate(&instance).is_ok(), fused.is_valid(&instance));
        }
    }
}

#[test]
fn the_discriminator_is_used_and_exact() {
    let one_of = Validator::new(&schema("oneOf", false)).unwrap();
    assert!(format!("{one_of:?}").contains("Switch"), "{one_of:?}");
    // Two branches accept a circle with a radius and a label: oneOf fails, anyOf passes.
    let circle = json!({"kind": "circle", "r": 1, "label": "c"});
    assert!(!one_of.is_valid(&circle));
    assert!(Validator::new(&schema("anyOf", false))
        .unwrap()
        .is_valid(&circle));
    // A tag matching nothing, and a non-string tag, leave only the untagged branch.
    assert!(!one_of.is_valid(&json!({"kind": "hexagon"})));
    assert!(one_of.is_valid(&json!({"kind": 7, "anything": 1})));
}

proptest! {
    #[test]
    fn a_string_enum_agrees_with_an_any_of_consts(
        options in proptest::collection::vec("[a-e]{0,3}", 1..24),
        instance in prop_oneof![
            "[a-e]{0,3}".prop_map(Value::from),
            Just(json!(null)),
            Just(json!(3)),
            Just(json!(["a"])),
        ],
    ) {
        let fused = Validator::new(&json!({ "enum": options })).unwrap();
        let consts: Vec<Value> = options.iter().map(|o| json!({ "const": o })).collect();
        let plain = Validator::new(&json!({ "anyOf": consts })).unwrap();
        prop_assert_eq!(fused.is_valid(&instance), plain.is_valid(&instance), "{}", instance);
    }
}

/// Arrays nested up to four deep, of numbers, strings and nulls.
fn nested_arrays() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!(1)),
        Just(json!(2.5)),
        Just(json!("s")),
        Just(json!(null))
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        proptest::collection::vec(inner, 0..5).prop_map(Value::Array)
    })
}

proptest! {
    #[test]
    fn fused_array_leaves_agree_with_the_plain_nodes(instance in nested_arrays()) {
        let position = |hide: bool| {
            let number = json!({"type": "number"});
            let items = if hide { json!({"anyOf": [number]}) } else { number };
            json!({"type": "array", "minItems": 2, "items": items})
        };
        for hide in [false, true] {
            let ring = json!({"type": "array", "items": position(hide)});
            let with_unevaluated = json!({"allOf": [{"items": position(hide)}], "unevaluatedItems": false});
            let fused = Validator::new(&ring).unwrap();
            let plain = Validator::new(&json!({"anyOf": [ring]})).unwrap();
            prop_assert_eq!(fused.is_valid(&instance), plain.is_valid(&instance), "{}", instance);
            let unevaluated = Validator::new(&with_unevaluated).unwrap();
            prop_assert_eq!(unevaluated.is_valid(&instance), unevaluated.iter_errors(&instance).next().is_none());
        }
        let fused = Validator::new(&json!({"allOf": [{"items": {"type": "number"}}], "unevaluatedItems": false})).unwrap();
        let plain = Validator::new(&json!({"allOf": [{"items": {"anyOf": [{"type": "number"}]}}], "unevaluatedItems": false})).unwrap();
        prop_assert_eq!(fused.is_valid(&instance), plain.is_valid(&instance), "{}", instance);
    }
}

/// Arrays of up to five small objects (some equal, some failing the item schema) and
/// other values.
fn arrays_of_records() -> impl Strategy<Value = Value> {
    let item = prop_oneof![
        Just(json!({"a": 1})),
        Just(json!({"a": 2})),
        Just(json!({"a": "x"})),
        Just(json!({})),
        Just(json!(3)),
    ];
    prop_oneof![
        4 => proptest::collection::vec(item, 0..6).prop_map(Value::Array),
        1 => Just(json!("not an array")),
    ]
}

proptest! {
    #[test]
    fn array_sizes_folded_into_the_items_table_agree_with_the_plain_nodes(
        instance in arrays_of_records(),
        min in 0..4u32,
        max in 1..6u32,
        unique in any::<bool>(),
    ) {
        let items = json!({"type": "object", "properties": {"a": {"type": "number"}}});
        let folded = json!({
            "type": "array", "minItems": min, "maxItems": max, "uniqueItems": unique,
            "items": items
        });
        // Each size check behind an `anyOf` of one branch: not folded.
        let plain = json!({
            "type": "array", "items": items,
            "allOf": [
                {"anyOf": [{"minItems": min}]},
                {"anyOf": [{"maxItems": max}]},
                {"anyOf": [{"uniqueItems": unique}]}
            ]
        });
        let (folded, plain) = (Validator::new(&folded).unwrap(), Validator::new(&plain).unwrap());
        prop_assert_eq!(folded.is_valid(&instance), plain.is_valid(&instance), "{}", instance);
        prop_assert_eq!(folded.is_valid(&instance), folded.validate(&instance).is_ok());
        let errors = folded.iter_errors(&instance).count();
        prop_assert_eq!(folded.is_valid(&instance), errors == 0, "{}", instance);
    }
}

#[test]
fn array_sizes_beside_a_table_fold_into_it_and_explain_by_keyword() {
    let v = Validator::new(&json!({
        "type": "array", "minItems": 2, "maxItems": 3, "uniqueItems": true,
        "items": {"type": "object", "properties": {"a": {"type": "number"}}}
    }))
    .unwrap();
    let program = format!("{v:?}");
    let root = program
        .lines()
        .find(|line| line.starts_with('>'))
        .unwrap_or_default();
    assert!(root.contains("Array"), "{program}");
    assert!(v.is_valid(&json!([{"a": 1}, {"a": 2}])));
    let cases = [
        (json!([{"a": 1}]), "/minItems"),
        (json!([{}, {}, {}, {}]), "/maxItems"),
        (json!([{"a": 1}, {"a": 1}]), "/uniqueItems"),
        (json!([{"a": 1}, {"a": "x"}]), "/items/properties/a/type"),
        (json!("x"), "/type"),
    ];
    for (bad, keyword) in cases {
        assert!(!v.is_valid(&bad), "{bad}");
        let error = v.validate(&bad).unwrap_err();
        assert_eq!(error.schema_location(), keyword, "{bad}");
    }
    // Collecting every error, the size and the item both report.
    let all: Vec<String> = (v.iter_errors(&json!([{"a": "x"}])))
        .map(|e| e.schema_location().to_owned())
        .collect();
    assert_eq!(all, ["/minItems", "/items/properties/a/type"]);
}

/// Branches of different types, some only through a `$ref`, an `allOf`, an `if` or a
/// recursive reference: the compiler's type analysis lets `oneOf`/`anyOf` skip the ones
/// that cannot accept an instance's type.
fn typed_branches() -> Vec<Value> {
    vec![
        json!({"type": "string", "minLength": 2}),
        json!({"type": "integer", "minimum": 0}),
        json!({"type": "object", "required": ["a"]}),
        json!({"$ref": "#/$defs/list"}),
        json!({"anyOf": [{"type": "null"}, {"type": "boolean"}]}),
        json!({"allOf": [{"type": ["number", "string"]}, {"type": "string"}], "maxLength": 3}),
        json!({"if": {"type": "string"}, "then": {"type": "string", "pattern": "^x"}, "else": {"type": "number"}}),
        json!({"minimum": 5}),
        json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"$ref": "#"}}}),
    ]
}

/// Scalars of every type, and small arrays and objects of them.
fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!(null)),
        Just(json!(true)),
        Just(json!(-1)),
        Just(json!(7)),
        Just(json!(2.5)),
        Just(json!("x")),
        Just(json!("xyz")),
        Just(json!("abcd")),
    ];
    leaf.prop_recursive(2, 12, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            proptest::collection::btree_map("[ab]", inner, 0..2)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn type_pruned_branches_agree_with_opaque_ones(
        instance in any_value(),
        picks in proptest::collection::vec(0..9usize, 1..5),
    ) {
        let defs = json!({"list": {"type": "array", "items": {"$ref": "#"}}});
        agrees_with_opaque_branches(&typed_branches(), &picks, &defs, &instance)?;
    }
}

/// For `oneOf` and `anyOf` over the `picks` of `variants` (with `$defs` `defs`): the
/// verdict on `instance` is the one with every branch wrapped as `{"not": {"not": S}}`,
/// which accepts what `S` accepts but hides `S` from the compiler's analyses, and
/// `validate` agrees with `is_valid`.
fn agrees_with_opaque_branches(
    variants: &[Value],
    picks: &[usize],
    defs: &Value,
    instance: &Value,
) -> Result<(), TestCaseError> {
    for keyword in ["oneOf", "anyOf"] {
        let chosen: Vec<Value> = picks.iter().map(|&i| variants[i].clone()).collect();
        let opaque: Vec<Value> = chosen.iter().map(|s| json!({"not": {"not": s}})).collect();
        let analysed = Validator::new(&json!({"$defs": defs, keyword: chosen})).unwrap();
        let plain = Validator::new(&json!({"$defs": defs, keyword: opaque})).unwrap();
        prop_assert_eq!(
            analysed.is_valid(instance),
            plain.is_valid(instance),
            "{} {} {:?}",
            keyword,
            instance,
            picks
        );
        prop_assert_eq!(
            analysed.validate(instance).is_ok(),
            analysed.is_valid(instance)
        );
    }
    Ok(())
}

/// Variants the discriminator reads in every way it can: a listed tag, a tag excluded by
/// `not`, a required tag, a nested `oneOf` whose branches all pin the tag, a branch that
/// accepts no object, and one that says nothing about the tag.
fn tagged_variants() -> Vec<Value> {
    vec![
        json!({"properties": {"kind": {"enum": ["circle", "disc"]}, "r": {"type": "number"}}, "required": ["kind", "r"]}),
        json!({"type": "object", "properties": {"kind": {"type": "string", "not": {"enum": ["circle", "square"]}}}, "required": ["kind"]}),
        json!({"oneOf": [
            {"properties": {"kind": {"const": "square"}}, "required": ["kind", "side"]},
            {"properties": {"kind": {"const": "box"}, "side": {"type": "string"}}, "required": ["side"]}
        ]}),
        json!({"$ref": "#/$defs/triangle"}),
        json!({"type": "string"}),
        json!({"required": ["anything"]}),
        json!({"properties": {"kind": {"const": "disc"}, "side": {"minimum": 3}}}),
    ]
}

/// [`tagged_variants`] and two whose `not` asks more of the tag than a value: they
/// exclude no tag (`"circle"` fails `maxLength: 0`, so it passes the `not`).
fn tagged_variants_and_broad_nots() -> Vec<Value> {
    let mut variants = tagged_variants();
    variants.extend([
        json!({"properties": {"kind": {"not": {"const": "circle", "maxLength": 0}}}}),
        json!({"properties": {"kind": {"not": {"enum": ["square", "box"], "minLength": 4}}},
               "required": ["side"]}),
    ]);
    variants
}

proptest! {
    #[test]
    fn an_extended_discriminator_agrees_with_opaque_branches(
        instance in instance(),
        picks in proptest::collection::vec(0..9usize, 4..8),
    ) {
        agrees_with_opaque_branches(
            &tagged_variants_and_broad_nots(), &picks, &triangle_defs(), &instance,
        )?;
    }
}

/// The `$defs` the tagged variants' `$ref` points into.
fn triangle_defs() -> Value {
    json!({"triangle": {"properties": {"kind": {"const": "triangle"}}, "required": ["kind", "a"]}})
}

#[test]
fn the_extended_discriminator_is_used() {
    let schema = json!({"$defs": triangle_defs(), "oneOf": tagged_variants()});
    let validator = Validator::new(&schema).unwrap();
    assert!(format!("{validator:?}").contains("Switch"), "{validator:?}");
    // Excluded by the `not`, listed by the nested oneOf: only the nested square passes.
    assert!(validator.is_valid(&json!({"kind": "square", "side": 1})));
    // Open to the negated branch alone (and the untagged `required` one).
    assert!(validator.is_valid(&json!({"kind": "hexagon"})));
    assert!(!validator.is_valid(&json!({"kind": "hexagon", "anything": 1})));
    // No tag: only branches that do not require it, here the last two.
    assert!(validator.is_valid(&json!({"r": 1})));
    assert!(!validator.is_valid(&json!({"anything": 1})));
}

#[test]
fn typed_arrays_fuse_into_one_node_and_explain_by_keyword() {
    let v = Validator::new(&json!({
        "type": "array", "minItems": 2, "maxItems": 3, "uniqueItems": true,
        "items": {"type": "number"}
    }))
    .unwrap();
    assert!(format!("{v:?}").contains("ArrayOf"), "{v:?}");
    assert!(v.is_valid(&json!([1, 2.5])));
    for bad in [
        json!([1]),
        json!([1, 1.0]),
        json!([1, 2, 3, 4]),
        json!([1, "a"]),
        json!("x"),
        json!({}),
    ] {
        assert!(!v.is_valid(&bad), "{bad}");
        assert!(v.validate(&bad).is_err(), "{bad}");
    }
    let error = v.validate(&json!([1, "a"])).unwrap_err();
    assert_eq!(
        (error.instance_location(), error.schema_location()),
        ("/1", "/items/type")
    );
    let error = v.validate(&json!([1])).unwrap_err();
    assert_eq!(error.schema_location(), "/minItems");
    let error = v.validate(&json!([2, 2.0])).unwrap_err();
    assert_eq!(error.schema_location(), "/uniqueItems");
    let error = v.validate(&json!("x")).unwrap_err();
    assert_eq!(error.schema_location(), "/type");
}

/// An array schema of lone types: the value's `type`, array-form or `prefixItems` item
/// types, maybe a rest of one type, maybe sizes; `hide` gives every item schema a keyword
/// that is neutral on these instances (no object has the key) but no leaf, so nothing
/// fuses.
/// The value's types, the prefix's item types, the rest's, `minItems`, `maxItems`,
/// `uniqueItems: true` or none, and whether the schema is draft 7's (array-form `items`)
/// rather than 2020-12's.
type ArrayShape = (
    Value,
    Vec<Value>,
    Option<Value>,
    Option<u32>,
    Option<u32>,
    bool,
    bool,
);

fn array_shape((types, prefix, rest, min, max, unique, draft7): ArrayShape, hide: bool) -> Value {
    let hiding = if draft7 {
        "dependencies"
    } else {
        "dependentSchemas"
    };
    let item = |t: &Value| match hide {
        true => json!({"type": t, hiding: {"never-a-key": false}}),
        false => json!({"type": t}),
    };
    let prefix: Vec<Value> = prefix.iter().map(item).collect();
    let mut schema = json!({"type": types});
    let object = schema.as_object_mut().unwrap();
    match (draft7, prefix.is_empty()) {
        (_, true) => {
            object.insert(
                "items".into(),
                item(rest.as_ref().unwrap_or(&json!("number"))),
            );
        }
        (true, false) => {
            object.insert("items".into(), Value::Array(prefix));
            if let Some(rest) = &rest {
                object.insert("additionalItems".into(), item(rest));
            }
        }
        (false, false) => {
            object.insert("prefixItems".into(), Value::Array(prefix));
            if let Some(rest) = &rest {
                object.insert("items".into(), item(rest));
            }
        }
    }
    if let Some(min) = min {
        object.insert("minItems".into(), json!(min));
    }
    if let Some(max) = max {
        object.insert("maxItems".into(), json!(max));
    }
    if unique {
        object.insert("uniqueItems".into(), json!(true));
    }
    if draft7 {
        object.insert(
            "$schema".into(),
            json!("http://json-schema.org/draft-07/schema#"),
        );
    }
    schema
}

fn array_shapes() -> impl Strategy<Value = ArrayShape> {
    let item_type = prop_oneof![
        Just(json!("string")),
        Just(json!("number")),
        Just(json!("integer")),
        Just(json!("null")),
        Just(json!("array")),
        Just(json!(["string", "null"])),
    ];
    let types = prop_oneof![
        Just(json!("array")),
        Just(json!(["string", "array"])),
        Just(json!(["array", "null"])),
        Just(json!("string")),
    ];
    (
        types,
        proptest::collection::vec(item_type.clone(), 0..4),
        proptest::option::of(item_type),
        proptest::option::of(0..4u32),
        proptest::option::of(0..4u32),
        any::<bool>(),
        any::<bool>(),
    )
}

proptest! {
    #[test]
    fn array_shapes_of_lone_types_agree_with_the_plain_nodes(
        shape in array_shapes(),
        instance in nested_arrays(),
    ) {
        let fused = array_shape(shape.clone(), false);
        let plain = array_shape(shape, true);
        let (f, p) = (Validator::new(&fused).unwrap(), Validator::new(&plain).unwrap());
        // Fused whenever arrays may pass the types (else the fused loop would need to
        // test arrays for them).
        let arrays = fused["type"] != json!("string");
        prop_assert_eq!(format!("{f:?}").contains("ArrayOf"), arrays, "{}", fused);
        prop_assert!(!format!("{p:?}").contains("ArrayOf"), "{}", plain);
        prop_assert_eq!(f.is_valid(&instance), p.is_valid(&instance), "{} {}", fused, instance);
        prop_assert_eq!(f.is_valid(&instance), f.validate(&instance).is_ok());
        // What the fused node evaluates, for `unevaluatedItems` (2020-12 only).
        if fused.get("$schema").is_none() {
            let wrap = |s: &Value| json!({"allOf": [s], "unevaluatedItems": false});
            let (f, p) = (Validator::new(&wrap(&fused)).unwrap(), Validator::new(&wrap(&plain)).unwrap());
            prop_assert_eq!(f.is_valid(&instance), p.is_valid(&instance), "{} {}", fused, instance);
        }
    }
}

#[test]
fn name_and_options_pairs_fuse_into_one_node_and_explain_by_keyword() {
    // babelrc's plugins: a name, or a name and its options.
    let v = Validator::new(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "array",
        "items": {"type": ["string", "array"], "items": [{"type": "string"}, {"type": "object"}]}
    }))
    .unwrap();
    assert!(format!("{v:?}").contains("ArrayOf"), "{v:?}");
    assert!(v.is_valid(&json!(["a", ["b", {}], ["c"], ["d", {"x": 1}, 3]])));
    for bad in [json!([1]), json!([[1]]), json!([["a", "b"]]), json!([{}])] {
        assert!(!v.is_valid(&bad), "{bad}");
        assert!(v.validate(&bad).is_err(), "{bad}");
    }
    let error = v.validate(&json!(["a", ["b", "c"]])).unwrap_err();
    assert_eq!(
        (error.instance_location(), error.schema_location()),
        ("/1/1", "/items/items/1/type")
    );
    let error = v.validate(&json!([2])).unwrap_err();
    assert_eq!(error.schema_location(), "/items/type");
}

/// Item schemas of strings that settle as one check (an `enum`, a `pattern`, lengths),
/// and one that does not.
fn string_items() -> Vec<Value> {
    vec![
        json!({"type": "string", "enum": ["a", "bb", "ccc"]}),
        json!({"type": "string", "pattern": "^[a-c]+$"}),
        json!({"type": "string", "minLength": 2, "maxLength": 3}),
        json!({"type": "string", "maxLength": 1}),
        json!({"type": "string", "enum": ["a", "bb"], "pattern": "b"}),
    ]
}

proptest! {
    #[test]
    fn arrays_of_settled_strings_agree_with_the_plain_nodes(
        instance in proptest::collection::vec(
            prop_oneof![
                Just(json!("a")), Just(json!("bb")), Just(json!("ccc")), Just(json!("abcd")),
                Just(json!("")), Just(json!("é")), Just(json!(1)), Just(json!(null)),
            ],
            0..5,
        ),
    ) {
        let instance = Value::Array(instance);
        for item in string_items() {
            let mut hidden = item.clone();
            hidden["dependentSchemas"] = json!({"never-a-key": false});
            let fused = Validator::new(&json!({"type": "array", "items": item})).unwrap();
            let plain = Validator::new(&json!({"type": "array", "items": hidden})).unwrap();
            prop_assert_eq!(fused.is_valid(&instance), plain.is_valid(&instance), "{} {}", item, instance);
            prop_assert_eq!(fused.is_valid(&instance), fused.validate(&instance).is_ok());
        }
    }
}

/// Schemas an `allOf` merges: property sets that share names (with different schemas),
/// fold a `required`, add patterns, nest another `allOf`, say nothing (`{}`), or cannot
/// merge (`additionalProperties`); one reached through a `$ref`.
fn property_sets() -> Vec<Value> {
    vec![
        json!({"properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}),
        json!({"properties": {"a": {"minimum": 2}, "c": {"type": "boolean"}}, "required": ["a"]}),
        json!({"type": "object", "properties": {"b": {"maxLength": 2}}, "required": ["b"]}),
        json!({"patternProperties": {"^x": {"type": "null"}}, "properties": {"c": {"const": true}}}),
        json!({"allOf": [{"properties": {"a": {"maximum": 5}}}, {"minProperties": 1}]}),
        json!({}),
        json!({"properties": {"a": true, "b": true}, "additionalProperties": false}),
        json!({"$ref": "#/$defs/d"}),
    ]
}

/// Objects over the names the property sets use, with values of several types.
fn property_objects() -> impl Strategy<Value = Value> {
    let value = prop_oneof![
        Just(json!(null)),
        Just(json!(true)),
        Just(json!(1)),
        Just(json!(3)),
        Just(json!(9)),
        Just(json!("s")),
        Just(json!("long")),
    ];
    prop_oneof![
        proptest::collection::btree_map("a|b|c|d|x1|y", value, 0..5)
            .prop_map(|map| Value::Object(map.into_iter().collect())),
        Just(json!([1])),
    ]
}

proptest! {
    #[test]
    fn merged_property_tables_agree_with_opaque_ones(
        instance in property_objects(),
        picks in proptest::collection::vec(0..8usize, 1..5),
        unevaluated in any::<bool>(),
    ) {
        let sets = property_sets();
        let defs = json!({"d": {"properties": {"d": {"type": "string"}, "a": {"type": "number"}}}});
        let chosen: Vec<Value> = picks.iter().map(|&i| sets[i].clone()).collect();
        // `anyOf` of one keeps the annotations `unevaluatedProperties` reads.
        let opaque: Vec<Value> = chosen.iter().map(|s| json!({"anyOf": [s]})).collect();
        let wrap = |parts: Vec<Value>| {
            let mut schema = json!({"$defs": defs, "allOf": parts});
            if unevaluated {
                schema["unevaluatedProperties"] = json!(false);
            }
            Validator::new(&schema).unwrap()
        };
        let (merged, plain) = (wrap(chosen), wrap(opaque));
        prop_assert_eq!(merged.is_valid(&instance), plain.is_valid(&instance), "{} {:?}", instance, picks);
        prop_assert_eq!(merged.validate(&instance).is_ok(), merged.is_valid(&instance));
        prop_assert_eq!(merged.iter_errors(&instance).next().is_none(), merged.is_valid(&instance));
    }
}

#[test]
fn an_all_of_of_property_sets_is_one_table() {
    let v = Validator::new(&json!({"allOf": [
        {"properties": {"a": {"type": "integer"}}, "required": ["a"]},
        {"allOf": [{"properties": {"a": {"minimum": 2}, "b": {"type": "string"}}}, {}]}
    ]}))
    .unwrap();
    let program = format!("{v:?}");
    let root = program.lines().find(|line| line.starts_with('>')).unwrap();
    assert!(root.contains("Properties"), "{program}");
    assert!(v.is_valid(&json!({"a": 3, "b": "x"})));
    let error = v.validate(&json!({"a": 1})).unwrap_err();
    assert_eq!(
        error.schema_location(),
        "/allOf/1/allOf/0/properties/a/minimum"
    );
    let error = v.validate(&json!({"b": "x"})).unwrap_err();
    assert_eq!(error.schema_location(), "/allOf/0/required");
}

/// Bare `properties` tables (no `type`, no `additionalProperties`) of one to three
/// names, as an `if` or a branch reads them: some names required, one schema reached
/// through a `$ref` (held back until the cheap ones pass). Objects with many more keys
/// than such a table has names are checked by looking the names up in the object.
fn bare_tables() -> Vec<Value> {
    vec![
        json!({"properties": {"kind": {"const": "a"}}}),
        json!({"properties": {"kind": {"enum": ["a", "b"]}, "n": {"type": "integer"}}, "required": ["kind"]}),
        json!({"properties": {"n": {"minimum": 2}, "deep": {"$ref": "#/$defs/deep"}, "s": {"type": "string"}}, "required": ["n", "s"]}),
        json!({"if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
               "then": {"properties": {"n": {"type": "integer"}}, "required": ["n"]},
               "else": {"properties": {"s": {"maxLength": 3}}}}),
        json!({"properties": {"deep": {"$ref": "#/$defs/deep"}}, "additionalProperties": true}),
    ]
}

/// Objects of up to twelve keys, the tables' names among others.
fn wide_objects() -> impl Strategy<Value = Value> {
    let value = prop_oneof![
        Just(json!(null)),
        Just(json!(1)),
        Just(json!(5)),
        Just(json!(2.5)),
        Just(json!("a")),
        Just(json!("b")),
        Just(json!("long")),
        Just(json!({"n": 1})),
        Just(json!({"n": "x"})),
    ];
    proptest::collection::btree_map("kind|n|s|deep|k[0-9]", value, 0..12)
        .prop_map(|map| Value::Object(map.into_iter().collect()))
}

proptest! {
    #[test]
    fn looking_names_up_agrees_with_the_loop_over_keys(instance in wide_objects()) {
        let defs = json!({"deep": {"properties": {"n": {"type": "integer"}}, "required": ["n"]}});
        for table in bare_tables() {
            let mut schema = table.clone();
            schema["$defs"] = defs.clone();
            // A pattern no key matches: the same meaning, but the table is no longer
            // open, so every key goes through the table.
            let mut looped = schema.clone();
            looped["patternProperties"] = json!({"^\u{0}never$": true});
            let (fast, slow) = (Validator::new(&schema).unwrap(), Validator::new(&looped).unwrap());
            let verdict = fast.is_valid(&instance);
            prop_assert_eq!(verdict, slow.is_valid(&instance), "{} {}", table, instance);
            prop_assert_eq!(verdict, fast.validate(&instance).is_ok(), "{} {}", table, instance);
            prop_assert_eq!(verdict, fast.iter_errors(&instance).next().is_none());
        }
    }
}

/// A union's branches hold their costly properties back until the cheap ones passed:
/// a branch whose tag is wrong fails before its large property is walked, so a valid
/// instance needs one walk of it, not one per branch. Observable through the budget:
/// one walk fits in it, two do not.
#[test]
fn a_branch_with_the_wrong_tag_fails_before_its_costly_property() {
    let branch = |tag: u64| {
        json!({"properties": {
            // Integer tags: no switch on them, each branch is tried in turn.
            "kind": {"const": tag},
            "data": {"type": "array", "items": {"type": "object",
                     "properties": {"x": {"type": "integer"}, "y": {"type": "string"}}}}
        }})
    };
    let schema = json!({"oneOf": [branch(1), branch(2), branch(3)]});
    let item = json!({"x": 1, "y": "a"});
    // "data" sorts before "kind": the loop over the keys meets the costly one first.
    let instance = json!({"data": vec![item; 100], "kind": 3});
    let steps_of_one_walk = 100 * 4;
    let validator = Validator::options()
        .with_step_budget(steps_of_one_walk * 3 / 2)
        .build(&schema)
        .unwrap();
    assert!(validator.is_valid(&instance));
    assert!(validator.validate(&instance).is_ok());
    let mut wrong = instance.clone();
    wrong["kind"] = json!(4);
    assert!(!validator.is_valid(&wrong));
}

/// Branches of distinct kinds: a union of the object branch (no leaf: a union of
/// leaves only is fused into one leaf) and some of the others is decided by the branch
/// of the value's kind alone (`Node::ByKind`).
fn kinded_branches() -> Vec<Value> {
    vec![
        json!({"type": "string", "minLength": 2}),
        json!({"type": "array", "items": {"type": "integer"}}),
        json!({"type": "null"}),
        json!({"type": "integer", "minimum": 3}),
        json!({"type": "boolean", "const": true}),
    ]
}

fn kinded_values() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(null)),
        Just(json!(true)),
        Just(json!(false)),
        Just(json!(2)),
        Just(json!(5)),
        Just(json!(5.5)),
        Just(json!("a")),
        Just(json!("ab")),
        Just(json!([1, 2])),
        Just(json!([1, "x"])),
        Just(json!({"x": 1, "y": 2})),
        Just(json!({"x": 1})),
    ]
}

proptest! {
    /// `anyOf` / `oneOf` of branches of distinct kinds give the verdict of the same union
    /// spelt so that nothing is dispatched by kind (`anyOf` as a negated conjunction of
    /// negations), through every entry point.
    #[test]
    fn a_union_of_distinct_kinds_is_decided_by_the_branch_of_the_kind(
        others in proptest::sample::subsequence(kinded_branches(), 1..=3),
        at in 0usize..4,
        one in any::<bool>(),
        instance in kinded_values(),
    ) {
        let defs = json!({"point": {"type": "object", "required": ["x", "y"],
            "properties": {"x": {"type": "integer"}}}});
        let mut picked = others;
        picked.insert(at.min(picked.len()), json!({"$ref": "#/$defs/point"}));
        let keyword = if one { "oneOf" } else { "anyOf" };
        let dispatched = json!({"$defs": defs, keyword: picked});
        let negations: Vec<Value> = picked.iter().map(|b| json!({"not": b})).collect();
        let plain = json!({"$defs": defs, "not": {"allOf": negations}});
        let fast = Validator::new(&dispatched).unwrap();
        let oracle = Validator::new(&plain).unwrap();
        prop_assert!(format!("{fast:?}").contains("ByKind"), "{}", dispatched);
        let verdict = fast.is_valid(&instance);
        prop_assert_eq!(verdict, oracle.is_valid(&instance), "{} {}", dispatched, instance);
        prop_assert_eq!(verdict, fast.validate(&instance).is_ok());
        prop_assert_eq!(verdict, fast.iter_errors(&instance).next().is_none());
    }
}

/// Names that sort in byte order unlike their lengths, share prefixes, and are not ASCII.
const RECORD_NAMES: [&str; 6] = ["a", "ab", "b", "B", "\u{e9}t\u{e9}", "a b"];

/// A closed record that requires every name it lists (some of [`RECORD_NAMES`]), the
/// same with one more optional name no instance has (which the exact loop does not
/// take), and where the record sits: the root, an array's items, a property's value.
fn closed_records() -> impl Strategy<Value = (Value, Value)> {
    let leaf = prop_oneof![
        Just(json!({"type": "integer"})),
        Just(json!({"type": "string"})),
        Just(json!(true)),
        Just(json!({"enum": [1, "x"]})),
    ];
    (
        proptest::collection::btree_map(
            proptest::sample::select(RECORD_NAMES.to_vec()),
            leaf,
            1..5,
        ),
        0..3usize,
    )
        .prop_map(|(table, place)| {
            let names: Vec<&str> = table.keys().copied().collect();
            let record = |extra: bool| {
                let mut properties = json!(table);
                if extra {
                    properties["never-given"] = json!(true);
                }
                json!({"type": "object", "properties": properties, "required": names,
                       "additionalProperties": false})
            };
            let placed = |record: Value| match place {
                0 => record,
                1 => json!({"type": "array", "items": record}),
                _ => json!({"type": "object", "properties": {"r": record}}),
            };
            (placed(record(false)), placed(record(true)))
        })
}

/// Objects over [`RECORD_NAMES`] (and one more name), where the records sit.
fn record_instances() -> impl Strategy<Value = Vec<Value>> {
    let value = prop_oneof![Just(json!(1)), Just(json!("x")), Just(json!(null))];
    let names = prop_oneof![proptest::sample::select(RECORD_NAMES.to_vec()), Just("c")];
    let object = proptest::collection::btree_map(names.prop_map(String::from), value, 0..6)
        .prop_map(|map| Value::Object(map.into_iter().collect()));
    proptest::collection::vec(object, 1..4).prop_map(|objects| {
        let mut instances = objects.clone();
        instances.push(Value::Array(objects.clone()));
        instances.extend(objects.into_iter().map(|object| json!({"r": object})));
        instances.push(json!("not an object"));
        instances
    })
}

proptest! {
    #[test]
    fn closed_records_checked_key_by_key_agree_with_the_lookup_loop(
        (exact, looked_up) in closed_records(),
        instances in record_instances(),
    ) {
        let (exact, looked_up) = (Validator::new(&exact).unwrap(), Validator::new(&looked_up).unwrap());
        for instance in &instances {
            prop_assert_eq!(exact.is_valid(instance), looked_up.is_valid(instance), "{}", instance);
            prop_assert_eq!(exact.validate(instance).is_ok(), exact.is_valid(instance));
        }
    }
}

/// The names of a record of plain fields, short and long enough for every way a key's
/// spelling is read, and keys near them.
const PLAIN_NAMES: [&str; 6] = ["a", "ab", "hour", "temp", "conditions", "sixteen_bytes_ok"];
const NEAR_PLAIN_NAMES: [&str; 7] = [
    "b",
    "abc",
    "hout",
    "tamp",
    "conditionz",
    "sixteen_bytes_no",
    "",
];

/// Records that every name of `names` requires, closed, each field a lone `type`
/// (typed) or the same type behind a check that always passes (plain): the same
/// meaning, run by the typed loop or the general exact one.
fn plain_record(names: &[&str], typed: bool) -> Value {
    let field = |i: usize| {
        let kind = ["string", "number", "integer", "boolean"][i % 4];
        match typed {
            true => json!({ "type": kind }),
            false => json!({ "type": kind, "not": {"const": "never sent"} }),
        }
    };
    let properties: serde_json::Map<String, Value> = (names.iter().enumerate())
        .map(|(i, name)| (name.to_string(), field(i)))
        .collect();
    json!({"type": "array", "items": {
        "type": "object", "properties": properties, "required": names,
        "additionalProperties": false
    }})
}

/// Arrays of objects whose keys are the record's names, a near name or a missing one,
/// with values of each type.
fn plain_records(names: usize) -> impl Strategy<Value = Value> {
    let value = prop_oneof![
        Just(json!("x")),
        Just(json!(1)),
        Just(json!(1.5)),
        Just(json!(true)),
        Just(json!(null)),
        Just(json!({})),
    ];
    let key = prop_oneof![
        4 => (0..names).prop_map(|i| PLAIN_NAMES[i].to_string()),
        1 => (0..NEAR_PLAIN_NAMES.len()).prop_map(|i| NEAR_PLAIN_NAMES[i].to_string()),
    ];
    let object = proptest::collection::btree_map(key, value, 0..names + 2)
        .prop_map(|map| Value::Object(map.into_iter().collect()));
    proptest::collection::vec(object, 0..4).prop_map(Value::Array)
}

proptest! {
    #[test]
    fn a_record_of_plain_fields_agrees_with_the_general_exact_loop(
        names in 1..=PLAIN_NAMES.len(),
        instance in plain_records(PLAIN_NAMES.len()),
    ) {
        let names = &PLAIN_NAMES[..names];
        let typed = Validator::new(&plain_record(names, true)).unwrap();
        let plain = Validator::new(&plain_record(names, false)).unwrap();
        let verdict = typed.is_valid(&instance);
        prop_assert_eq!(verdict, plain.is_valid(&instance), "{}", instance);
        prop_assert_eq!(verdict, typed.validate(&instance).is_ok(), "{}", instance);
    }
}

#[test]
fn a_record_of_plain_fields_accepts_exactly_its_shape() {
    let validator = Validator::new(&plain_record(&PLAIN_NAMES, true)).unwrap();
    let good = json!({"a": "x", "ab": 1.5, "hour": 2, "temp": true,
        "conditions": "x", "sixteen_bytes_ok": 1});
    assert!(validator.is_valid(&json!([good.clone(), good.clone()])));
    for (key, value) in [("hour", json!(2.5)), ("temp", json!("x"))] {
        let mut bad = good.clone();
        bad[key] = value;
        assert!(!validator.is_valid(&json!([good.clone(), bad])), "{key}");
    }
    let mut renamed = good.as_object().unwrap().clone();
    let value = renamed.remove("sixteen_bytes_ok").unwrap();
    renamed.insert("sixteen_bytes_no".to_string(), value);
    assert!(!validator.is_valid(&json!([Value::Object(renamed)])));
}
