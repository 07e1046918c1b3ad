//! A deterministic, structure-aware mutator for the stable fuzz smoke: byte-level mutations (bit flips, byte
//! sets, inserts, deletes, duplications, splices between seeds), token-aware ones for text formats (a keyword or
//! a number replaced by another from the format's dictionary, interesting numbers), JSON value mutations
//! (a random value of the parsed document replaced, removed, duplicated or wrapped; in a GLB, its JSON chunk is
//! mutated and the container re-framed) and nesting bombs (a structural opener repeated thousands of times).
//! A splitmix64 generator seeded from the target's name makes every run identical.

use super::targets::InputKind;

/// Largest input the mutator produces.
const MAX_LEN: usize = 256 << 10;

/// Numbers that break parsers: signs, zero, extremes, non-finite spellings, integer boundaries, huge counts.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "2",
    "3",
    "6",
    "7",
    "0.5",
    "1e308",
    "-1e308",
    "1e-308",
    "5e-324",
    "1e999",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "65535",
    "65536",
    "2147483647",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "1000000000",
    "1000000",
    "100000",
    ".0083333",
    "1e9",
    "-1e9",
    "1e15",
    "1e-12",
    "0x10",
    "+1",
    "1.",
    ".",
];

const BVH_WORDS: &[&str] = &[
    "HIERARCHY",
    "ROOT",
    "JOINT",
    "End",
    "Site",
    "OFFSET",
    "CHANNELS",
    "MOTION",
    "Frames:",
    "Frame",
    "Time:",
    "{",
    "}",
    "Xposition",
    "Yposition",
    "Zposition",
    "Xrotation",
    "Yrotation",
    "Zrotation",
    "\n",
    "\r\n",
    "\t",
];

const URDF_WORDS: &[&str] = &[
    "<robot name=\"r\">",
    "</robot>",
    "<link name=\"a\">",
    "<link name=\"b\"/>",
    "</link>",
    "<joint name=\"j\" type=\"revolute\">",
    "<joint name=\"k\" type=\"spherical\">",
    "</joint>",
    "<parent link=\"a\"/>",
    "<child link=\"b\"/>",
    "<child link=\"a\"/>",
    "<origin xyz=\"0 0 1\" rpy=\"0 nan 0\"/>",
    "<inertial><mass value=\"1e308\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"-1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>",
    "<axis xyz=\"0 0 0\"/>",
    "<collision><geometry><capsule radius=\"-1\" length=\"1\"/></geometry></collision>",
    "<visual><geometry><box size=\"0 0 0\"/></geometry></visual>",
    "<limit lower=\"1\" upper=\"-1\"/>",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "<?xml version=\"1.0\"?>",
    "\"",
    "'",
    "<",
    ">",
    "/>",
    "&amp;",
    "&#0;",
];

const JSON_KEYS: &[&str] = &[
    // Hits files and character configurations.
    "hits",
    "type",
    "impulse",
    "ball",
    "aimed_ball",
    "bone",
    "time",
    "arrival",
    "velocity",
    "radius",
    "mass",
    "flight",
    "point",
    "space",
    "restitution",
    "model",
    "preprocess",
    "gains",
    "rate_hz",
    "cutoff_hz",
    "threads",
    "k_s",
    "k_d",
    "k_min",
    "d_min",
    "load_factor",
    "min_frequency",
    "bones",
    "radius_rules",
    "names",
    "height_fraction",
    "default_radius_ratio",
    "density",
    "total_mass",
    "merge",
    "min_bone_length",
    "max_mass_ratio",
    "min_inertia_fraction",
    "joint",
    // glTF.
    "nodes",
    "children",
    "skins",
    "joints",
    "skeleton",
    "inverseBindMatrices",
    "animations",
    "channels",
    "samplers",
    "sampler",
    "target",
    "node",
    "path",
    "input",
    "output",
    "interpolation",
    "accessors",
    "count",
    "bufferView",
    "byteOffset",
    "byteStride",
    "componentType",
    "sparse",
    "indices",
    "values",
    "buffers",
    "bufferViews",
    "byteLength",
    "buffer",
    "uri",
    "matrix",
    "rotation",
    "translation",
    "scale",
    "min",
    "max",
    "scenes",
    "scene",
    "meshes",
    "asset",
    "version",
    "extensionsUsed",
    "extensionsRequired",
];

const JSON_STRINGS: &[&str] = &[
    "impulse",
    "ball",
    "aimed_ball",
    "bone",
    "world",
    "Hips",
    "RightForeArm",
    "Head",
    "",
    "LINEAR",
    "STEP",
    "CUBICSPLINE",
    "rotation",
    "translation",
    "scale",
    "weights",
    "SCALAR",
    "VEC3",
    "VEC4",
    "MAT4",
    "data:application/octet-stream;base64,AAAA",
    "data:application/gltf-buffer;base64,",
    "2.0",
    "\u{0}",
];

/// Openers whose repetition builds deep nesting.
fn bombs(kind: InputKind) -> &'static [&'static str] {
    match kind {
        InputKind::Bvh => &[
            "JOINT j\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n",
            "0 0 0 ",
        ],
        InputKind::Urdf => &["<a>", "<link name=\"l\"/>"],
        InputKind::Gltf | InputKind::Config | InputKind::FormatAndClip => &["[", "{\"a\":", "[[[["],
    }
}

/// The generator and the seed pool.
pub struct Mutator {
    state: u64,
    kind: InputKind,
    seeds: Vec<Vec<u8>>,
    last: Vec<u8>,
}

impl Mutator {
    /// A mutator for `kind` inputs from `seeds`, its generator seeded from `name`.
    pub fn new(name: &str, kind: InputKind, seeds: Vec<Vec<u8>>) -> Mutator {
        let state = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        let last = seeds.first().cloned().unwrap_or_default();
        Mutator {
            state,
            kind,
            seeds,
            last,
        }
    }

    fn next_u64(&mut self) -> u64 {
        // splitmix64
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        let i = self.below(items.len());
        items.get(i)
    }

    /// The next input: a seed or the previous input, with one to four mutations stacked.
    pub fn next_input(&mut self) -> Vec<u8> {
        let mut input = if self.below(10) < 6 {
            let i = self.below(self.seeds.len());
            self.seeds.get(i).cloned().unwrap_or_default()
        } else {
            self.last.clone()
        };
        for _ in 0..=self.below(4) {
            self.mutate(&mut input);
        }
        input.truncate(MAX_LEN);
        self.last = input.clone();
        input
    }

    fn mutate(&mut self, v: &mut Vec<u8>) {
        let text_kind = !matches!(self.kind, InputKind::FormatAndClip);
        match self.below(12) {
            0 if !v.is_empty() => {
                let i = self.below(v.len());
                v[i] ^= 1 << self.below(8);
            }
            1 if !v.is_empty() => {
                let i = self.below(v.len());
                v[i] = *self.pick(b"\x00\xff{}[]\"'<>/\n -.e9:,=#").unwrap_or(&0);
            }
            2 => {
                let at = self.below(v.len() + 1);
                let n = 1 + self.below(8);
                let bytes: Vec<u8> = (0..n).map(|_| self.next_u64() as u8).collect();
                v.splice(at..at, bytes);
            }
            3 if !v.is_empty() => {
                let at = self.below(v.len());
                let n = 1 + self.below((v.len() - at).min(256));
                v.drain(at..at + n);
            }
            4 if !v.is_empty() => {
                let at = self.below(v.len());
                let n = 1 + self.below((v.len() - at).min(1024));
                let chunk = v[at..at + n].to_vec();
                let to = self.below(v.len() + 1);
                v.splice(to..to, chunk);
            }
            5 => {
                // Splice: this input's head, another seed's tail.
                let i = self.below(self.seeds.len());
                let other = self.seeds.get(i).cloned().unwrap_or_default();
                let cut = self.below(v.len() + 1);
                let from = self.below(other.len() + 1);
                v.truncate(cut);
                v.extend_from_slice(&other[from..]);
            }
            6 | 7 if text_kind => self.replace_token(v),
            8 if text_kind => self.replace_number(v),
            9 | 10 if matches!(self.kind, InputKind::Config | InputKind::Gltf) => {
                self.mutate_json(v)
            }
            11 => {
                let bomb = *self.pick(bombs(self.kind)).unwrap_or(&"[");
                let times = [10, 100, 1000, 5000][self.below(4)];
                let at = self.below(v.len() + 1);
                v.splice(at..at, bomb.repeat(times).into_bytes());
            }
            _ => {
                if self.kind == InputKind::FormatAndClip && !v.is_empty() && self.below(4) == 0 {
                    v[0] = self.below(6) as u8;
                } else if !v.is_empty() {
                    let i = self.below(v.len());
                    v[i] = v[i].wrapping_add(1 + self.below(3) as u8);
                }
            }
        }
    }

    /// Whitespace-separated token boundaries `(start, end)`.
    fn tokens(v: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut start = None;
        for (i, &b) in v.iter().enumerate() {
            let sep = b.is_ascii_whitespace()
                || matches!(b, b',' | b'"' | b'=' | b'[' | b']' | b'<' | b'>');
            match (start, sep) {
                (None, false) => start = Some(i),
                (Some(s), true) => {
                    out.push((s, i));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            out.push((s, v.len()));
        }
        out
    }

    fn replace_token(&mut self, v: &mut Vec<u8>) {
        let words: &[&str] = match self.kind {
            InputKind::Bvh => BVH_WORDS,
            InputKind::Urdf => URDF_WORDS,
            _ => JSON_KEYS,
        };
        let word = *self.pick(words).unwrap_or(&"");
        let tokens = Self::tokens(v);
        match self.pick(&tokens).copied() {
            Some((s, e)) if self.below(3) > 0 => {
                v.splice(s..e, word.bytes());
            }
            _ => {
                let at = self.below(v.len() + 1);
                let mut w = word.as_bytes().to_vec();
                w.push(b' ');
                v.splice(at..at, w);
            }
        }
    }

    fn replace_number(&mut self, v: &mut Vec<u8>) {
        let number = *self.pick(NUMBERS).unwrap_or(&"0");
        let numeric: Vec<(usize, usize)> = Self::tokens(v)
            .into_iter()
            .filter(|&(s, e)| {
                v[s..e].iter().any(u8::is_ascii_digit)
                    && v[s..e]
                        .iter()
                        .all(|b| b.is_ascii_digit() || b"+-.eE".contains(b))
            })
            .collect();
        if let Some((s, e)) = self.pick(&numeric).copied() {
            v.splice(s..e, number.bytes());
        } else {
            let at = self.below(v.len() + 1);
            v.splice(at..at, number.bytes());
        }
    }

    /// Mutates a JSON text, or a GLB's JSON chunk (re-framing the container).
    fn mutate_json(&mut self, v: &mut Vec<u8>) {
        if v.starts_with(b"glTF") && v.len() >= 20 {
            let len = u32::from_le_bytes([v[12], v[13], v[14], v[15]]) as usize;
            let Some(json) = v.get(20..20 + len).map(<[u8]>::to_vec) else {
                return;
            };
            let Some(mut mutated) = self.mutate_json_text(&json) else {
                return;
            };
            while mutated.len() % 4 != 0 {
                mutated.push(b' ');
            }
            let tail = v[20 + len..].to_vec();
            let mut out = v[..12].to_vec();
            out.extend_from_slice(&(mutated.len() as u32).to_le_bytes());
            out.extend_from_slice(b"JSON");
            out.extend_from_slice(&mutated);
            out.extend_from_slice(&tail);
            let total = out.len() as u32;
            out[8..12].copy_from_slice(&total.to_le_bytes());
            *v = out;
        } else if let Some(m) = self.mutate_json_text(v) {
            *v = m;
        }
    }

    /// A random value of `v` reached by a walk of up to `depth` steps from it.
    fn pick_node<'a>(
        &mut self,
        v: &'a mut serde_json::Value,
        depth: usize,
    ) -> &'a mut serde_json::Value {
        let len = match &*v {
            serde_json::Value::Array(a) => a.len(),
            serde_json::Value::Object(o) => o.len(),
            _ => 0,
        };
        if depth == 0 || len == 0 {
            return v;
        }
        let i = self.below(len);
        match v {
            serde_json::Value::Array(a) => self.pick_node(&mut a[i], depth - 1),
            serde_json::Value::Object(o) => match o.values_mut().nth(i) {
                Some(x) => self.pick_node(x, depth - 1),
                None => unreachable!("i < len"),
            },
            other => other,
        }
    }

    fn mutate_json_text(&mut self, text: &[u8]) -> Option<Vec<u8>> {
        use serde_json::Value;
        let mut doc: Value = serde_json::from_slice(text).ok()?;
        let depth = self.below(8);
        let choice = self.below(8);
        let number = *self.pick(NUMBERS).unwrap_or(&"0");
        let key = *self.pick(JSON_KEYS).unwrap_or(&"a");
        let string = *self.pick(JSON_STRINGS).unwrap_or(&"");
        let extra = self.below(64);
        let which = self.below(4);
        let index = self.below(1 << 16);
        let node = self.pick_node(&mut doc, depth);
        let number_value =
            || serde_json::from_str::<Value>(number).unwrap_or(Value::String(number.to_string()));
        match choice {
            0 => *node = number_value(),
            1 => *node = Value::String(string.to_string()),
            2 => match node {
                Value::Object(o) if !o.is_empty() => {
                    let k = o.keys().nth(index % o.len()).cloned();
                    if let Some(k) = k {
                        o.remove(&k);
                    }
                }
                Value::Array(a) if !a.is_empty() => {
                    a.remove(index % a.len());
                }
                _ => *node = Value::Null,
            },
            3 => {
                if let Value::Array(a) = node {
                    if let Some(item) = a.get(index % a.len().max(1)).cloned() {
                        for _ in 0..=extra {
                            a.push(item.clone());
                        }
                    }
                }
            }
            4 => {
                if let Value::Object(o) = node {
                    o.insert(key.to_string(), number_value());
                }
            }
            5 => {
                let inner = node.take();
                *node = Value::Array(vec![inner]);
            }
            6 => {
                *node = [
                    Value::Null,
                    Value::Bool(true),
                    Value::Array(Vec::new()),
                    Value::Object(Default::default()),
                ][which]
                    .clone();
            }
            _ => {
                if let Value::Array(a) = node {
                    a.clear();
                } else {
                    *node = number_value();
                }
            }
        }
        serde_json::to_vec(&doc).ok()
    }
}
