//! Python objects to JSON values and back, with no JSON text in between.
//!
//! [`to_value`] reads what Python's `json` module produces (and what MCP SDKs hand over):
//! `dict` with `str` keys, `list`, `tuple`, `str`, `int`, `float`, `bool` and `None`,
//! and instances of their subclasses (an `IntEnum`, an `OrderedDict`) as the base type.
//! Anything else is a `TypeError` naming where it is (a JSON Pointer): another class, a
//! key that is not a `str`, a NaN or infinite `float`, a `str` holding a lone
//! surrogate, an `int` beyond what the build's numbers hold, and nesting deeper than the
//! bound it is given (so a `list` that contains itself, which is reported as such). The
//! walk recurses at most that bound deep: no Python recursion error, no stack overflow.
//!
//! Each object's exact type is compared first (one pointer comparison for the common
//! types); subclasses take a second, slower test. Containers are read through CPython's
//! C API with borrowed references (see [`Object`] for why that is sound): the
//! conversion is most of what a call on a small instance costs.
//!
//! Integers: exact within `i64` and `u64`; larger ones become the number their decimal
//! text parses to, as `serde_json` parses JSON text: exact with the `arbitrary-precision`
//! feature, else the nearest double (a `TypeError` beyond the doubles' range).
//!
//! [`to_py`] goes the other way, for the values the library hands back (error operands,
//! annotations, output formats, wire forms).

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString};
use serde_json::{Map, Number, Value};

/// A value converted, and how many values it holds (itself included): the size the
/// caller weighs the cost of releasing the GIL against.
pub(crate) struct Converted {
    /// The JSON value.
    pub(crate) value: Value,
    /// How many values (containers and scalars) it holds.
    pub(crate) size: usize,
}

/// Converts `object` to a JSON value, containers nested at most `max_depth` deep (the
/// top level is depth 0). `what` names it in errors ("instance", "schema").
pub(crate) fn to_value(
    object: &Bound<'_, PyAny>,
    max_depth: u32,
    what: &str,
) -> PyResult<Converted> {
    let mut walk = Walk { max_depth, size: 0 };
    match walk.value(Object(object.as_ptr()), 0) {
        Ok(value) => Ok(Converted {
            value,
            size: walk.size,
        }),
        Err(mut problem) => {
            problem.explain_cycle(object);
            Err(problem.into_error(what))
        }
    }
}

/// One conversion's state.
struct Walk {
    max_depth: u32,
    size: usize,
}

/// Why an object is not JSON, and where (tokens innermost first, pushed on the way out).
struct Problem {
    reversed_path: Vec<String>,
    message: String,
    /// Whether the walk stopped at the depth bound (then the path may go round a cycle).
    too_deep: bool,
}

impl Problem {
    fn new(message: String) -> Problem {
        Problem {
            reversed_path: Vec::new(),
            message,
            too_deep: false,
        }
    }

    /// Puts `token` in front of the location.
    fn within(mut self, token: impl ToString) -> Problem {
        self.reversed_path.push(token.to_string());
        self
    }

    /// For a walk stopped by the depth bound: if the path passes a container twice,
    /// names the first container that comes round again, where it comes round, instead
    /// of where the bound stopped the walk. Found after the fact, from `root` along the
    /// path, so that the walk itself keeps no record of the containers it is in.
    fn explain_cycle(&mut self, root: &Bound<'_, PyAny>) {
        if !self.too_deep {
            return;
        }
        let mut seen: Vec<usize> = Vec::new();
        let mut current = root.clone();
        let tokens: Vec<String> = self.reversed_path.iter().rev().cloned().collect();
        for (depth, token) in tokens.iter().enumerate() {
            let address = current.as_ptr() as usize;
            if let Some(first) = seen.iter().position(|&a| a == address) {
                self.message = format!(
                    "this {} contains itself: it is the one at {}",
                    type_name(&current),
                    pointer(&tokens[..first])
                );
                self.reversed_path = tokens[..depth].iter().rev().cloned().collect();
                return;
            }
            seen.push(address);
            let next = match current.cast::<PyDict>() {
                Ok(dict) => dict.get_item(token).ok().flatten(),
                Err(_) => (token.parse::<usize>().ok()).and_then(|i| current.get_item(i).ok()),
            };
            let Some(next) = next else {
                return;
            };
            current = next;
        }
    }

    fn into_error(self, what: &str) -> PyErr {
        let tokens: Vec<String> = self.reversed_path.into_iter().rev().collect();
        let at = pointer(&tokens);
        PyTypeError::new_err(format!("{what} at {at}: {}", self.message))
    }
}

/// `tokens` as a JSON Pointer, `(root)` when empty.
fn pointer(tokens: &[String]) -> String {
    if tokens.is_empty() {
        return "(root)".into();
    }
    let mut pointer = String::new();
    for token in tokens {
        pointer.push('/');
        pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
    }
    pointer
}

/// What is accepted, for messages.
const ACCEPTED: &str = "dict, list, tuple, str, int, float, bool or None";

/// The name of `object`'s type, for messages.
fn type_name(object: &Bound<'_, PyAny>) -> String {
    object
        .get_type()
        .name()
        .map_or_else(|_| "object".to_string(), |name| name.to_string())
}

/// A borrowed reference to an object inside the value being converted.
///
/// The walk reads the containers through CPython's C API with borrowed references
/// (no reference counting per item), which is sound because nothing can change or free
/// them meanwhile: the caller holds the root (and through it everything below) with the
/// GIL held for the whole walk (abi3 builds run only on CPython with a GIL), and the
/// walk never lets Python code run. Every call it makes is a plain accessor that calls
/// no Python method (`PyDict_Next`, `PyList_GetItem`, `PyUnicode_AsUTF8AndSize`,
/// `PyLong_AsLongLongAndOverflow`, `PyFloat_AsDouble` read an instance of a subclass
/// through its base type's layout, never through `__index__`, `__float__`, `__iter__` or
/// `__str__`; keys are never hashed), and the only Python objects it creates are `int`
/// and `str` (`PyNumber_ToBase`), which the garbage collector does not track, so no
/// collection and no finalizer can run. After a failure (an exception set by the C API,
/// then cleared) the walk only unwinds: no borrowed reference is read again.
#[derive(Clone, Copy)]
struct Object(*mut ffi::PyObject);

/// The exact built-in type of a value, or another.
enum Kind {
    Dict,
    Str,
    List,
    Int,
    Bool,
    Float,
    None,
    Tuple,
    Other,
}

impl Object {
    /// The kind of this object by its exact type.
    fn exact_kind(self) -> Kind {
        // SAFETY: a live object (see `Object`); the type objects are static.
        unsafe {
            let kind = ffi::Py_TYPE(self.0);
            if kind == &raw mut ffi::PyDict_Type {
                Kind::Dict
            } else if kind == &raw mut ffi::PyUnicode_Type {
                Kind::Str
            } else if kind == &raw mut ffi::PyList_Type {
                Kind::List
            } else if kind == &raw mut ffi::PyLong_Type {
                Kind::Int
            } else if kind == &raw mut ffi::PyBool_Type {
                Kind::Bool
            } else if kind == &raw mut ffi::PyFloat_Type {
                Kind::Float
            } else if self.0 == ffi::Py_None() {
                Kind::None
            } else if kind == &raw mut ffi::PyTuple_Type {
                Kind::Tuple
            } else {
                Kind::Other
            }
        }
    }

    /// The kind of an instance of a subclass of a built-in type, read as its base.
    fn base_kind(self) -> Kind {
        // SAFETY: a live object; `PyType_IsSubtype` reads the types' MROs only.
        let is = |base: *mut ffi::PyTypeObject| unsafe {
            ffi::PyType_IsSubtype(ffi::Py_TYPE(self.0), base) != 0
        };
        // `bool` cannot be subclassed: an `int` here is a number.
        if is(&raw mut ffi::PyDict_Type) {
            Kind::Dict
        } else if is(&raw mut ffi::PyUnicode_Type) {
            Kind::Str
        } else if is(&raw mut ffi::PyList_Type) {
            Kind::List
        } else if is(&raw mut ffi::PyLong_Type) {
            Kind::Int
        } else if is(&raw mut ffi::PyFloat_Type) {
            Kind::Float
        } else if is(&raw mut ffi::PyTuple_Type) {
            Kind::Tuple
        } else {
            Kind::Other
        }
    }

    /// The object as a `Bound`, for the error paths (a new strong reference).
    fn bound<'py>(self, py: Python<'py>) -> Bound<'py, PyAny> {
        // SAFETY: a live object (see `Object`); `from_borrowed_ptr` takes a reference.
        unsafe { Bound::from_borrowed_ptr(py, self.0) }
    }
}

impl Walk {
    fn value(&mut self, object: Object, depth: u32) -> Result<Value, Problem> {
        self.size += 1;
        let kind = match object.exact_kind() {
            Kind::Other => object.base_kind(),
            kind => kind,
        };
        match kind {
            Kind::Dict => self.dict(object, depth),
            Kind::Str => string_value(object).map(Value::String),
            Kind::List => self.sequence(object, depth, ffi::PyList_Size, ffi::PyList_GetItem),
            Kind::Int => int_value(object),
            Kind::Bool => {
                // SAFETY: comparing addresses only.
                Ok(Value::Bool(object.0 == unsafe { ffi::Py_True() }))
            }
            Kind::Float => {
                // SAFETY: a live `float` (or subclass): read from its layout, no call.
                float_value(unsafe { ffi::PyFloat_AsDouble(object.0) })
            }
            Kind::None => Ok(Value::Null),
            Kind::Tuple => self.sequence(object, depth, ffi::PyTuple_Size, ffi::PyTuple_GetItem),
            Kind::Other => Python::attach(|py| {
                Err(Problem::new(format!(
                    "{} is not a JSON value (expected {ACCEPTED})",
                    type_name(&object.bound(py))
                )))
            }),
        }
    }

    /// Refuses a container at `depth` past the bound.
    fn enter(&self, depth: u32) -> Result<(), Problem> {
        if depth >= self.max_depth {
            let mut problem = Problem::new(format!("nested deeper than {} levels", self.max_depth));
            problem.too_deep = true;
            return Err(problem);
        }
        Ok(())
    }

    fn dict(&mut self, dict: Object, depth: u32) -> Result<Value, Problem> {
        self.enter(depth)?;
        let mut map = Map::new();
        let mut position: ffi::Py_ssize_t = 0;
        let mut key: *mut ffi::PyObject = std::ptr::null_mut();
        let mut item: *mut ffi::PyObject = std::ptr::null_mut();
        // SAFETY: a live dict (or subclass), not mutated during the walk (see `Object`);
        // `PyDict_Next` hands out borrowed references, valid as long as the dict is.
        while unsafe { ffi::PyDict_Next(dict.0, &mut position, &mut key, &mut item) } != 0 {
            let key = Object(key);
            let name = match key.exact_kind() {
                Kind::Str => string_value(key)?,
                Kind::Other if matches!(key.base_kind(), Kind::Str) => string_value(key)?,
                _ => {
                    return Err(Python::attach(|py| {
                        Problem::new(format!(
                            "a dict key must be a str, got {}",
                            type_name(&key.bound(py))
                        ))
                    }))
                }
            };
            match self.value(Object(item), depth + 1) {
                Ok(value) => map.insert(name, value),
                Err(problem) => return Err(problem.within(name)),
            };
        }
        Ok(Value::Object(map))
    }

    /// A `list` or `tuple` (or subclass), read through `len` and `item`, its type's
    /// accessors.
    fn sequence(
        &mut self,
        sequence: Object,
        depth: u32,
        len: unsafe extern "C" fn(*mut ffi::PyObject) -> ffi::Py_ssize_t,
        item: unsafe extern "C" fn(*mut ffi::PyObject, ffi::Py_ssize_t) -> *mut ffi::PyObject,
    ) -> Result<Value, Problem> {
        self.enter(depth)?;
        // SAFETY: a live list or tuple (or subclass) of the type `len` and `item` are the
        // accessors of, not mutated during the walk (see `Object`): every index below its
        // length holds a borrowed reference.
        let count = unsafe { len(sequence.0) };
        let mut array = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
        for index in 0..count {
            // SAFETY: as above, `index < count`.
            let element = Object(unsafe { item(sequence.0, index) });
            match self.value(element, depth + 1) {
                Ok(value) => array.push(value),
                Err(problem) => return Err(problem.within(index)),
            }
        }
        Ok(Value::Array(array))
    }
}

/// The text of a `str` (or subclass).
fn string_value(string: Object) -> Result<String, Problem> {
    let mut len: ffi::Py_ssize_t = 0;
    // SAFETY: a live `str`; the UTF-8 buffer it returns lives as long as the string
    // (CPython caches it in the object) and holds `len` bytes of valid UTF-8.
    unsafe {
        let data = ffi::PyUnicode_AsUTF8AndSize(string.0, &mut len);
        if data.is_null() {
            // A lone surrogate cannot be encoded: the exception is ours to clear.
            ffi::PyErr_Clear();
            return Err(Problem::new(
                "this str is not valid Unicode (it holds a lone surrogate)".into(),
            ));
        }
        let bytes =
            std::slice::from_raw_parts(data.cast::<u8>(), usize::try_from(len).unwrap_or(0));
        Ok(std::str::from_utf8_unchecked(bytes).to_owned())
    }
}

/// The number an `int` (or subclass) is.
fn int_value(int: Object) -> Result<Value, Problem> {
    let mut overflow: std::ffi::c_int = 0;
    // SAFETY: a live `int`: read from its layout (no `__index__` for an int instance);
    // an overflow is reported through `overflow`, without an exception.
    let small = unsafe { ffi::PyLong_AsLongLongAndOverflow(int.0, &mut overflow) };
    if overflow == 0 {
        return Ok(Value::from(small));
    }
    Python::attach(|py| {
        // Beyond 64 bits: the number its decimal text is, as serde_json reads JSON text.
        // SAFETY: a live `int`; `PyNumber_ToBase` makes an exact int of it (no method of
        // a subclass runs) and its decimal `str`, a new reference owned by the `Bound`.
        let text = unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyNumber_ToBase(int.0, 10)) };
        let text = match text.and_then(|t| Ok(t.cast_into::<PyString>()?.to_cow()?.into_owned())) {
            Ok(text) => text,
            Err(error) => return Err(Problem::new(error.to_string())),
        };
        match text.parse::<Number>() {
            Ok(number) => Ok(Value::Number(number)),
            Err(_) => Err(Problem::new(format!(
                "this int ({} digits) is too large for a JSON number of this build",
                text.trim_start_matches('-').len()
            ))),
        }
    })
}

fn float_value(float: f64) -> Result<Value, Problem> {
    match Number::from_f64(float) {
        Some(number) => Ok(Value::Number(number)),
        None => {
            // As Python writes them.
            let name = match float {
                f if f.is_nan() => "nan",
                f if f > 0.0 => "inf",
                _ => "-inf",
            };
            Err(Problem::new(format!("float {name} is not a JSON number")))
        }
    }
}

/// The Python object for `value`: `dict`, `list`, `str`, `int`, `float`, `bool`, `None`.
pub(crate) fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(number) => number_to_py(py, number)?,
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

fn number_to_py<'py>(py: Python<'py>, number: &Number) -> PyResult<Bound<'py, PyAny>> {
    if let Some(int) = number.as_i64() {
        return Ok(int.into_pyobject(py)?.into_any());
    }
    if let Some(int) = number.as_u64() {
        return Ok(int.into_pyobject(py)?.into_any());
    }
    // A larger integer (kept as text by the `arbitrary-precision` build): Python's int.
    let text = number.to_string();
    if text.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
        return py.get_type::<PyInt>().call1((text,));
    }
    Ok(number
        .as_f64()
        .unwrap_or(f64::NAN)
        .into_pyobject(py)?
        .into_any())
}
