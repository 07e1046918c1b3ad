//! The page's files, bundled into the binary at build time (`assets/view/`): the page, its modules and the
//! vendored three.js (`assets/view/vendor/README.md`). Nothing is fetched from the network.

/// A bundled file: its name under the session path, MIME type and bytes.
pub struct Asset {
    /// The name in the URL (`/s/<token>/<name>`).
    pub name: &'static str,
    /// `Content-Type`.
    pub mime: &'static str,
    /// The bytes.
    pub bytes: &'static [u8],
}

macro_rules! asset {
    ($name:literal, $path:literal, $mime:literal) => {
        Asset {
            name: $name,
            mime: $mime,
            bytes: include_bytes!(concat!("../../../../assets/view/", $path)),
        }
    };
}

/// Every file the page loads.
pub const ASSETS: &[Asset] = &[
    asset!("index.html", "index.html", "text/html; charset=utf-8"),
    asset!("style.css", "style.css", "text/css; charset=utf-8"),
    asset!("view.js", "view.js", "text/javascript; charset=utf-8"),
    asset!(
        "protocol.js",
        "protocol.js",
        "text/javascript; charset=utf-8"
    ),
    asset!("draw.js", "draw.js", "text/javascript; charset=utf-8"),
    asset!(
        "controls.js",
        "controls.js",
        "text/javascript; charset=utf-8"
    ),
    asset!("plots.js", "plots.js", "text/javascript; charset=utf-8"),
    asset!(
        "three.module.min.js",
        "vendor/three.module.min.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "three.core.min.js",
        "vendor/three.core.min.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "OrbitControls.js",
        "vendor/OrbitControls.js",
        "text/javascript; charset=utf-8"
    ),
    asset!("skin.js", "skin.js", "text/javascript; charset=utf-8"),
    asset!(
        "GLTFLoader.js",
        "vendor/GLTFLoader.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "BufferGeometryUtils.js",
        "vendor/BufferGeometryUtils.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "SkeletonUtils.js",
        "vendor/SkeletonUtils.js",
        "text/javascript; charset=utf-8"
    ),
];

/// The file named `name` (`""` is the page).
pub fn find(name: &str) -> Option<&'static Asset> {
    let name = if name.is_empty() { "index.html" } else { name };
    ASSETS.iter().find(|a| a.name == name)
}
