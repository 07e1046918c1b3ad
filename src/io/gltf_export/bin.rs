//! The output binary buffer: aligned bufferViews and typed accessors (with exact min/max) appended to one
//! buffer, as JSON objects ready to be added to the document.

use serde_json::{Value, json};

/// `componentType` codes (glTF 2.0 §3.6.2.2).
const FLOAT: u32 = 5126;
const UNSIGNED_BYTE: u32 = 5121;
const UNSIGNED_SHORT: u32 = 5123;
const UNSIGNED_INT: u32 = 5125;

/// bufferView targets.
pub(crate) const ARRAY_BUFFER: u32 = 34962;
pub(crate) const ELEMENT_ARRAY_BUFFER: u32 = 34963;

/// The single output buffer and the bufferViews / accessors pointing into it.
///
/// Indices returned are global: the first new bufferView is `view_base`, the first new accessor is
/// `accessor_base` (the counts already in a source document).
#[derive(Debug, Default)]
pub(crate) struct Bin {
    /// Buffer bytes.
    pub data: Vec<u8>,
    /// New bufferViews (all on buffer 0).
    pub views: Vec<Value>,
    /// New accessors.
    pub accessors: Vec<Value>,
    view_base: usize,
    accessor_base: usize,
}

impl Bin {
    /// An empty buffer whose new views and accessors are numbered after `view_base` / `accessor_base`.
    pub fn new(view_base: usize, accessor_base: usize) -> Bin {
        Bin {
            view_base,
            accessor_base,
            ..Bin::default()
        }
    }

    /// Pads with zeros to a multiple of `align` bytes.
    fn align(&mut self, align: usize) {
        while self.data.len() % align != 0 {
            self.data.push(0);
        }
    }

    /// Appends raw bytes at a 16-byte aligned offset (a source buffer), returning that offset.
    pub fn append_raw(&mut self, bytes: &[u8]) -> usize {
        self.align(16);
        let at = self.data.len();
        self.data.extend_from_slice(bytes);
        at
    }

    /// Appends a bufferView holding `bytes` (4-byte aligned), returning its index.
    pub fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        self.align(4);
        let mut v = json!({
            "buffer": 0,
            "byteOffset": self.data.len(),
            "byteLength": bytes.len(),
        });
        if let (Some(t), Some(obj)) = (target, v.as_object_mut()) {
            obj.insert("target".into(), json!(t));
        }
        self.data.extend_from_slice(bytes);
        self.views.push(v);
        self.view_base + self.views.len() - 1
    }

    fn push_accessor(&mut self, accessor: Value) -> usize {
        self.accessors.push(accessor);
        self.accessor_base + self.accessors.len() - 1
    }

    /// Appends a float accessor of `kind` (`SCALAR`, `VEC3`, `VEC4`, `MAT4`) with `width` components per
    /// element, with per-component min/max of the stored f32 values. Errors (naming the first bad component)
    /// when a value is not finite once converted to f32.
    pub fn floats(
        &mut self,
        values: &[f64],
        kind: &str,
        width: usize,
        target: Option<u32>,
    ) -> Result<usize, String> {
        if width == 0 || values.len() % width != 0 {
            return Err(format!(
                "{} values do not form {kind} elements",
                values.len()
            ));
        }
        let mut lo = vec![f32::INFINITY; width];
        let mut hi = vec![f32::NEG_INFINITY; width];
        let mut bytes = Vec::with_capacity(values.len() * 4);
        for (i, &v) in values.iter().enumerate() {
            let x = v as f32;
            if !x.is_finite() {
                return Err(format!(
                    "element {} component {}: {v} is not a finite f32",
                    i / width,
                    i % width
                ));
            }
            let c = i % width;
            if let (Some(l), Some(h)) = (lo.get_mut(c), hi.get_mut(c)) {
                *l = l.min(x);
                *h = h.max(x);
            }
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        let view = self.view(&bytes, target);
        let mut acc = json!({
            "bufferView": view,
            "componentType": FLOAT,
            "count": values.len() / width,
            "type": kind,
        });
        if !values.is_empty() {
            if let Some(obj) = acc.as_object_mut() {
                // f32 → f64 is exact, so the JSON numbers equal the stored values.
                obj.insert(
                    "min".into(),
                    json!(lo.iter().map(|&x| f64::from(x)).collect::<Vec<_>>()),
                );
                obj.insert(
                    "max".into(),
                    json!(hi.iter().map(|&x| f64::from(x)).collect::<Vec<_>>()),
                );
            }
        }
        Ok(self.push_accessor(acc))
    }

    /// Appends an unsigned-integer accessor of `kind` with `width` components, stored in the smallest of
    /// u8 / u16 / u32 that holds `max_value` (`allow_byte` false skips u8, e.g. for indices).
    pub fn uints(
        &mut self,
        values: &[u32],
        kind: &str,
        width: usize,
        target: Option<u32>,
        allow_byte: bool,
    ) -> usize {
        let max = values.iter().copied().max().unwrap_or(0);
        let (component, bytes): (u32, Vec<u8>) = if allow_byte && max <= u32::from(u8::MAX) {
            (UNSIGNED_BYTE, values.iter().map(|&v| v as u8).collect())
        } else if max <= u32::from(u16::MAX) {
            (
                UNSIGNED_SHORT,
                values
                    .iter()
                    .flat_map(|&v| (v as u16).to_le_bytes())
                    .collect(),
            )
        } else {
            (
                UNSIGNED_INT,
                values.iter().flat_map(|&v| v.to_le_bytes()).collect(),
            )
        };
        let view = self.view(&bytes, target);
        self.push_accessor(json!({
            "bufferView": view,
            "componentType": component,
            "count": values.len() / width.max(1),
            "type": kind,
        }))
    }
}

#[cfg(test)]
mod tests;
