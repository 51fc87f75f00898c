//! Evaluation marks: which properties and items of the current instance some keyword
//! has evaluated, for `unevaluatedProperties` and `unevaluatedItems`.
//!
//! Marks are only recorded while tracking is on, i.e. inside a [`Node::Unevaluated`]
//! body, and only for the instance location that body validates: descending into a
//! child value switches tracking off. A failing branch's marks are dropped by truncating
//! the list back to where the branch started, which is how "annotations of failed
//! subschemas are discarded" costs nothing when nobody fails.
//!
//! [`Node::Unevaluated`]: crate::program::Node::Unevaluated

/// One evaluation fact about the current instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// The property whose key string starts at this address was evaluated. Keys are
    /// compared by identity: marks only ever describe one object, whose keys are
    /// distinct strings, so the address names the key without borrowing it.
    Property(usize),
    /// Every property was evaluated (`additionalProperties`, `unevaluatedProperties`).
    AllProperties,
    /// Items below this index were evaluated (`prefixItems`).
    ItemsBelow(usize),
    /// The item at this index was evaluated (`contains`).
    Item(usize),
    /// Every item was evaluated (`items`, `unevaluatedItems`).
    AllItems,
}

/// Whether the property whose key is at address `key` is evaluated according to `marks`.
pub(crate) fn property_evaluated(marks: &[Mark], key: usize) -> bool {
    marks.iter().any(|mark| match mark {
        Mark::AllProperties => true,
        Mark::Property(evaluated) => *evaluated == key,
        _ => false,
    })
}

/// Whether the item at `index` is evaluated according to `marks`.
pub(crate) fn item_evaluated(marks: &[Mark], index: usize) -> bool {
    marks.iter().any(|mark| match *mark {
        Mark::AllItems => true,
        Mark::ItemsBelow(end) => index < end,
        Mark::Item(evaluated) => evaluated == index,
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_answer_by_name_and_index() {
        let (a, b) = (String::from("a"), String::from("b"));
        let marks = [
            Mark::Property(a.as_ptr() as usize),
            Mark::ItemsBelow(2),
            Mark::Item(5),
        ];
        assert!(
            property_evaluated(&marks, a.as_ptr() as usize)
                && !property_evaluated(&marks, b.as_ptr() as usize)
        );
        assert!(
            item_evaluated(&marks, 1) && !item_evaluated(&marks, 2) && item_evaluated(&marks, 5)
        );
        assert!(property_evaluated(&[Mark::AllProperties], 0));
    }
}
