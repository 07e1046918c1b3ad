//! Reading accessors as `f64`, with every offset, stride and length checked against the buffers.
//!
//! The `gltf` crate's `utils` readers compute `stride * (count - 1)` unchecked and index slices on paths that
//! depend on the file, so a corrupt file could panic inside them; this reader returns an error instead.

use ::gltf::accessor::{Accessor, DataType, Dimensions};

use super::GltfImportError;
use super::container::BufferData;
use crate::io::Limits;

/// Number of components of an accessor element.
fn components(d: Dimensions) -> usize {
    match d {
        Dimensions::Scalar => 1,
        Dimensions::Vec2 => 2,
        Dimensions::Vec3 => 3,
        Dimensions::Vec4 => 4,
        Dimensions::Mat2 => 4,
        Dimensions::Mat3 => 9,
        Dimensions::Mat4 => 16,
    }
}

fn component_size(t: DataType) -> usize {
    match t {
        DataType::I8 | DataType::U8 => 1,
        DataType::I16 | DataType::U16 => 2,
        DataType::U32 | DataType::F32 => 4,
    }
}

/// Decodes one component; normalized integers map to [0, 1] or [−1, 1] as glTF 2.0 §3.11 specifies.
fn component(bytes: &[u8], t: DataType, normalized: bool) -> Option<f64> {
    Some(match t {
        DataType::F32 => f64::from(f32::from_le_bytes(bytes.get(..4)?.try_into().ok()?)),
        DataType::U32 => f64::from(u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?)),
        DataType::I8 => {
            let v = f64::from(i8::from_le_bytes([*bytes.first()?]));
            if normalized { (v / 127.0).max(-1.0) } else { v }
        }
        DataType::U8 => {
            let v = f64::from(*bytes.first()?);
            if normalized { v / 255.0 } else { v }
        }
        DataType::I16 => {
            let v = f64::from(i16::from_le_bytes(bytes.get(..2)?.try_into().ok()?));
            if normalized {
                (v / 32767.0).max(-1.0)
            } else {
                v
            }
        }
        DataType::U16 => {
            let v = f64::from(u16::from_le_bytes(bytes.get(..2)?.try_into().ok()?));
            if normalized { v / 65535.0 } else { v }
        }
    })
}

/// Largest value count of an accessor without a bufferView (all zeros but for its sparse entries): a bound so
/// that a corrupt count cannot allocate without limit.
const MAX_SPARSE_ONLY_VALUES: usize = 1 << 24;

/// Reads an accessor into `count × components` values (row by row), checking it against `expected` dimensions.
///
/// `context` names the reader for error messages (e.g. `animation 'Walk' channel 3 output`).
pub(crate) fn read_f64(
    accessor: &Accessor<'_>,
    expected: &[Dimensions],
    buffers: &[BufferData],
    context: &str,
    limits: &Limits,
) -> Result<Vec<f64>, GltfImportError> {
    let index = accessor.index();
    let err = |what: String| GltfImportError::Accessor {
        context: context.to_string(),
        index,
        what,
    };
    let dims = accessor.dimensions();
    if !expected.contains(&dims) {
        return Err(err(format!("type {dims:?}, expected one of {expected:?}")));
    }
    let n_comp = components(dims);
    let data_type = accessor.data_type();
    let csize = component_size(data_type);
    if matches!(dims, Dimensions::Mat2 | Dimensions::Mat3 | Dimensions::Mat4) && csize != 4 {
        // Small-component matrices have per-column padding (§3.6.2.4); nothing flinch reads uses them.
        return Err(err(format!(
            "matrix of {data_type:?} components, expected FLOAT"
        )));
    }
    let elem = n_comp * csize;
    let count = accessor.count();
    if count == 0 {
        return Err(err("count 0, expected at least 1".into()));
    }
    if count.saturating_mul(n_comp) > limits.max_accessor_values {
        return Err(err(Limits::exceeded(
            format!("count {count} × {n_comp} components"),
            "max_accessor_values",
            limits.max_accessor_values,
        )));
    }
    let normalized = accessor.normalized();
    // Check the byte range before allocating, so a corrupt count cannot ask for gigabytes.
    let view_data = match accessor.view() {
        Some(view) => {
            let bytes = view_bytes(&view, buffers).map_err(err)?;
            let stride = view.stride().unwrap_or(elem);
            if stride < elem {
                return Err(err(format!(
                    "byteStride {stride} is smaller than the element size {elem}"
                )));
            }
            let needed = (count - 1)
                .checked_mul(stride)
                .and_then(|x| x.checked_add(elem))
                .and_then(|x| x.checked_add(accessor.offset()));
            match needed {
                Some(n) if n <= bytes.len() => {}
                _ => {
                    return Err(err(format!(
                        "{count} elements of {elem} bytes (stride {stride}, offset {}) exceed bufferView {} ({} bytes)",
                        accessor.offset(),
                        view.index(),
                        bytes.len()
                    )));
                }
            }
            Some((bytes, stride))
        }
        None => None,
    };
    let total = count
        .checked_mul(n_comp)
        .filter(|&t| view_data.is_some() || t <= MAX_SPARSE_ONLY_VALUES)
        .ok_or_else(|| {
            err(format!(
                "count {count} is too large for a sparse-only accessor"
            ))
        })?;
    let mut out = vec![0.0; total];
    if let Some((bytes, stride)) = view_data {
        read_elements(
            bytes,
            accessor.offset(),
            stride,
            count,
            n_comp,
            data_type,
            normalized,
            &mut out,
        )
        .map_err(err)?;
    }
    if let Some(sparse) = accessor.sparse() {
        let n = sparse.count();
        if n == 0 || n > count {
            return Err(err(format!(
                "sparse count {n}, expected 1 ..= count {count}"
            )));
        }
        let idx_view = sparse.indices().view();
        let idx_bytes =
            view_bytes(&idx_view, buffers).map_err(|e| err(format!("sparse indices: {e}")))?;
        let idx_type = match sparse.indices().index_type() {
            ::gltf::accessor::sparse::IndexType::U8 => DataType::U8,
            ::gltf::accessor::sparse::IndexType::U16 => DataType::U16,
            ::gltf::accessor::sparse::IndexType::U32 => DataType::U32,
        };
        let isize = component_size(idx_type);
        let mut indices = vec![0.0; n];
        read_elements(
            idx_bytes,
            sparse.indices().offset(),
            isize,
            n,
            1,
            idx_type,
            false,
            &mut indices,
        )
        .map_err(|e| err(format!("sparse indices: {e}")))?;
        let val_view = sparse.values().view();
        let val_bytes =
            view_bytes(&val_view, buffers).map_err(|e| err(format!("sparse values: {e}")))?;
        let mut values = vec![0.0; n * n_comp];
        read_elements(
            val_bytes,
            sparse.values().offset(),
            elem,
            n,
            n_comp,
            data_type,
            normalized,
            &mut values,
        )
        .map_err(|e| err(format!("sparse values: {e}")))?;
        for (k, &i) in indices.iter().enumerate() {
            let i = i as usize;
            let dst = out.get_mut(i * n_comp..(i + 1) * n_comp).ok_or_else(|| {
                err(format!(
                    "sparse index {i} at {k} is not below count {count}"
                ))
            })?;
            // zip, not copy_from_slice: no length assertion on a path the file controls.
            let src = values.get(k * n_comp..(k + 1) * n_comp).unwrap_or_default();
            for (d, s) in dst.iter_mut().zip(src) {
                *d = *s;
            }
        }
    }
    Ok(out)
}

/// The bytes of a buffer view, checked against its buffer.
fn view_bytes<'b>(
    view: &::gltf::buffer::View<'_>,
    buffers: &'b [BufferData],
) -> Result<&'b [u8], String> {
    let b = view.buffer().index();
    let data = match buffers.get(b) {
        Some(Ok(d)) => d.as_slice(),
        Some(Err(e)) => {
            return Err(format!(
                "bufferView {} reads buffer {b}, which failed: {e}",
                view.index()
            ));
        }
        None => {
            return Err(format!(
                "bufferView {}: buffer {b} does not exist",
                view.index()
            ));
        }
    };
    let start = view.offset();
    start
        .checked_add(view.length())
        .and_then(|end| data.get(start..end))
        .ok_or_else(|| {
            format!(
                "bufferView {} range {}+{} exceeds buffer {b} ({} bytes)",
                view.index(),
                start,
                view.length(),
                data.len()
            )
        })
}

#[allow(clippy::too_many_arguments)]
fn read_elements(
    bytes: &[u8],
    offset: usize,
    stride: usize,
    count: usize,
    n_comp: usize,
    data_type: DataType,
    normalized: bool,
    out: &mut [f64],
) -> Result<(), String> {
    let csize = component_size(data_type);
    for e in 0..count {
        let base = e
            .checked_mul(stride)
            .and_then(|x| x.checked_add(offset))
            .ok_or_else(|| format!("element {e} offset overflows"))?;
        for c in 0..n_comp {
            let at = base + c * csize;
            let v = bytes
                .get(at..)
                .and_then(|b| component(b, data_type, normalized))
                .ok_or_else(|| {
                    format!(
                        "element {e} of {count} (byte {at}) lies past the end of its bufferView ({} bytes)",
                        bytes.len()
                    )
                })?;
            if let Some(slot) = out.get_mut(e * n_comp + c) {
                *slot = v;
            }
        }
    }
    Ok(())
}
