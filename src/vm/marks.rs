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

/// What a run of marks says was evaluated, summarised once so that checking every
/// property or item of a large instance stays O(n log n) rather than quadratic.
#[derive(Debug, Default)]
pub(crate) struct Evaluated {
    all_properties: bool,
    /// Addresses of evaluated keys, sorted.
    properties: Vec<usize>,
    all_items: bool,
    items_below: usize,
    /// Indices of evaluated items, sorted.
    items: Vec<usize>,
}

impl Evaluated {
    /// Summarises `marks`.
    pub(crate) fn of(marks: &[Mark]) -> Evaluated {
        let mut summary = Evaluated::default();
        for mark in marks {
            match *mark {
                Mark::Property(key) => summary.properties.push(key),
                Mark::AllProperties => summary.all_properties = true,
                Mark::ItemsBelow(end) => summary.items_below = summary.items_below.max(end),
                Mark::Item(index) => summary.items.push(index),
                Mark::AllItems => summary.all_items = true,
            }
        }
        summary.properties.sort_unstable();
        summary.items.sort_unstable();
        summary
    }

    /// Whether the property whose key string is at address `key` was evaluated.
    pub(crate) fn property(&self, key: usize) -> bool {
        self.all_properties || self.properties.binary_search(&key).is_ok()
    }

    /// Whether the item at `index` was evaluated.
    pub(crate) fn item(&self, index: usize) -> bool {
        self.all_items || index < self.items_below || self.items.binary_search(&index).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_answer_by_key_and_index() {
        let (a, b) = (String::from("a"), String::from("b"));
        let marks = [
            Mark::Property(a.as_ptr() as usize),
            Mark::ItemsBelow(2),
            Mark::Item(5),
        ];
        let evaluated = Evaluated::of(&marks);
        assert!(
            evaluated.property(a.as_ptr() as usize) && !evaluated.property(b.as_ptr() as usize)
        );
        assert!(evaluated.item(1) && !evaluated.item(2) && evaluated.item(5));
        assert!(Evaluated::of(&[Mark::AllProperties]).property(0));
    }
}
