//! The browser front end, served on the same port as gRPC and gRPC-web.
//!
//! A `GET` or `HEAD` that is not a gRPC call is answered here with a file of the app; every
//! other request goes on to the gRPC services untouched. The files are the ones embedded at
//! build time from `clients/web/dist` (see `build.rs`), or a directory given with
//! `serve --web-dir` (read on every request, so a rebuilt app shows on reload). A file `X.gz`
//! beside `X` is sent instead, with `Content-Encoding: gzip`, to a browser that accepts it.
//!
//! Every answer carries the security headers: a Content-Security-Policy that allows scripts,
//! styles and calls from this origin only (no inline scripts, no `eval`), `nosniff`, no
//! framing and no referrer.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::header::{self, HeaderValue};
use http::{Method, Request, Response, StatusCode};
use sha2::{Digest, Sha256};
use tower::{Layer, Service};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));
}

/// The Content-Security-Policy of every answer: the app's own scripts, styles and calls only.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Longest request path looked up (a longer one is simply not found).
const MAX_PATH_BYTES: usize = 512;

/// Where the app's files come from.
#[derive(Debug, Clone, Default)]
pub enum WebRoot {
    /// The files embedded in the binary at build time (none when the app was not built).
    #[default]
    Embedded,
    /// A directory read on every request.
    Dir(PathBuf),
    /// No app: every `GET` is passed on (and refused by the gRPC stack).
    Disabled,
}

impl WebRoot {
    /// Whether the binary carries the app.
    pub fn embedded_app() -> bool {
        embedded::FILES
            .iter()
            .any(|(name, _)| *name == "index.html")
    }
}

/// The app's files and how to answer for them.
#[derive(Debug)]
struct Files {
    root: WebRoot,
}

/// One file found.
struct Found {
    body: Bytes,
    gzip: bool,
    content_type: &'static str,
}

impl Files {
    /// The file at `rel` (a checked relative path), preferring its `.gz` twin when `gzip`.
    async fn find(&self, rel: &str, gzip: bool) -> Option<Found> {
        let content_type = content_type(rel);
        let compressed = format!("{rel}.gz");
        let candidates = [(true, compressed.as_str()), (false, rel)];
        for (zipped, name) in candidates {
            if zipped && !gzip {
                continue;
            }
            let body = match &self.root {
                WebRoot::Embedded => embedded::FILES
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, b)| Bytes::from_static(b)),
                WebRoot::Dir(dir) => read_under(dir, name).await,
                WebRoot::Disabled => None,
            };
            if let Some(body) = body {
                return Some(Found {
                    body,
                    gzip: zipped,
                    content_type,
                });
            }
        }
        None
    }
}

/// Reads `dir/rel` when it is a regular file inside `dir` (no symlink leads out of it).
async fn read_under(dir: &Path, rel: &str) -> Option<Bytes> {
    let path = dir.join(rel);
    let real = tokio::fs::canonicalize(&path).await.ok()?;
    let base = tokio::fs::canonicalize(dir).await.ok()?;
    if !real.starts_with(&base) {
        return None;
    }
    let meta = tokio::fs::metadata(&real).await.ok()?;
    if !meta.is_file() {
        return None;
    }
    tokio::fs::read(&real).await.ok().map(Bytes::from)
}

/// The file a request path names: `/` is `index.html`; `None` for anything that is not a
/// plain relative path (`..`, backslashes, control characters, hidden files).
fn file_of(path: &str) -> Option<Cow<'_, str>> {
    if path.len() > MAX_PATH_BYTES {
        return None;
    }
    let rel = path.strip_prefix('/')?;
    if rel.is_empty() {
        return Some(Cow::Borrowed("index.html"));
    }
    let plain = rel
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'/'));
    if !plain || rel.ends_with('/') {
        return None;
    }
    let ok = Path::new(rel).components().all(|c| match c {
        Component::Normal(part) => !part.to_string_lossy().starts_with('.'),
        _ => false,
    });
    ok.then_some(Cow::Borrowed(rel))
}

/// The media type of a file, by its extension.
fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" | "map" => "application/json",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// Whether the client accepts gzip (`Accept-Encoding`, without `gzip;q=0`).
fn accepts_gzip<B>(request: &Request<B>) -> bool {
    request
        .headers()
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|part| {
            let mut fields = part.split(';').map(str::trim);
            let name = fields.next().unwrap_or("");
            let refused = fields.any(|f| f.replace(' ', "") == "q=0");
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// Whether a request is for the app rather than a gRPC service: a `GET` or `HEAD` (gRPC and
/// gRPC-web calls are always `POST`).
fn is_app_request<B>(request: &Request<B>) -> bool {
    matches!(*request.method(), Method::GET | Method::HEAD)
}

/// The answer to an app request.
async fn answer<B>(files: &Files, request: &Request<B>) -> Response<Bytes> {
    let head = request.method() == Method::HEAD;
    let found = match file_of(request.uri().path()) {
        Some(rel) => files.find(&rel, accepts_gzip(request)).await,
        None => None,
    };
    let mut response = match found {
        Some(found) => {
            let tag = etag(&found.body);
            let fresh = request
                .headers()
                .get(header::IF_NONE_MATCH)
                .is_some_and(|v| v.as_bytes() == tag.as_bytes());
            let body = if fresh || head {
                Bytes::new()
            } else {
                found.body.clone()
            };
            let mut r = Response::new(body);
            if fresh {
                *r.status_mut() = StatusCode::NOT_MODIFIED;
            }
            let h = r.headers_mut();
            h.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(found.content_type),
            );
            if found.gzip {
                h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            }
            if head && !fresh {
                h.insert(header::CONTENT_LENGTH, HeaderValue::from(found.body.len()));
            }
            if let Ok(v) = HeaderValue::from_str(&tag) {
                h.insert(header::ETAG, v);
            }
            h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
            // File names carry no content hash: revalidate every time (cheap with the ETag).
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            r
        }
        None => not_found(&files.root, request.uri().path() == "/"),
    };
    security_headers(response.headers_mut());
    response
}

/// The 404 page; at `/` without an app it says how to build one.
fn not_found(root: &WebRoot, index: bool) -> Response<Bytes> {
    let text = if index {
        match root {
            WebRoot::Dir(dir) => format!(
                "The web front end is not in {}: build it with `bash clients/web/check.sh` \
                 (or `npm run build` in clients/web).\n",
                dir.display()
            ),
            _ => "This calabresella binary was built without the web front end: run \
                  `bash clients/web/check.sh` before `cargo build`, or start it with \
                  `serve --web-dir clients/web/dist`.\n"
                .to_owned(),
        }
    } else {
        "Not found.\n".to_owned()
    };
    let mut r = Response::new(Bytes::from(text));
    *r.status_mut() = StatusCode::NOT_FOUND;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

/// A strong validator of a file's bytes.
fn etag(body: &[u8]) -> String {
    let digest = Sha256::digest(body);
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// The headers every app answer carries.
fn security_headers(h: &mut http::HeaderMap) {
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        http::HeaderName::from_static("cross-origin-opener-policy"),
        HeaderValue::from_static("same-origin"),
    );
}

/// The layer that answers app requests before the gRPC stack sees them.
#[derive(Debug, Clone)]
pub struct WebAppLayer {
    files: Arc<Files>,
}

impl WebAppLayer {
    /// Serves the app from `root`.
    pub fn new(root: WebRoot) -> Self {
        WebAppLayer {
            files: Arc::new(Files { root }),
        }
    }
}

impl<S> Layer<S> for WebAppLayer {
    type Service = WebApp<S>;

    fn layer(&self, inner: S) -> WebApp<S> {
        WebApp {
            inner,
            files: self.files.clone(),
        }
    }
}

/// [`WebAppLayer`]'s service: the app for `GET`/`HEAD`, `inner` for everything else.
#[derive(Debug, Clone)]
pub struct WebApp<S> {
    inner: S,
    files: Arc<Files>,
}

impl<S, B> Service<Request<B>> for WebApp<S>
where
    S: Service<Request<B>, Response = Response<tonic::body::Body>> + Send,
    S::Future: Send + 'static,
    B: Send + 'static,
{
    type Response = Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<Self::Response, S::Error>> + Send>,
    >;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if matches!(self.files.root, WebRoot::Disabled) || !is_app_request(&request) {
            let future = self.inner.call(request);
            return Box::pin(future);
        }
        let files = self.files.clone();
        // The body of a GET is not read: keep only the head, which is all the answer needs.
        let (head, _) = request.into_parts();
        let request = Request::from_parts(head, ());
        Box::pin(async move {
            let response = answer(&files, &request).await;
            Ok(response.map(|b| tonic::body::Body::new(http_body_util::Full::new(b))))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_outside_the_app_are_refused() {
        assert_eq!(file_of("/").as_deref(), Some("index.html"));
        assert_eq!(file_of("/app.js").as_deref(), Some("app.js"));
        assert_eq!(
            file_of("/assets/a-b_c.css").as_deref(),
            Some("assets/a-b_c.css")
        );
        for bad in [
            "/../etc/passwd",
            "/a/../../x",
            "/.env",
            "/a/.git/config",
            "//etc/passwd",
            "/a\\b",
            "/dir/",
            "/%2e%2e/x",
            "relative",
        ] {
            assert_eq!(file_of(bad), None, "{bad}");
        }
        assert_eq!(file_of(&format!("/{}", "a".repeat(600))), None);
    }

    #[test]
    fn gzip_is_sent_only_when_accepted() {
        let with = |v: &str| {
            Request::builder()
                .header(header::ACCEPT_ENCODING, v)
                .body(())
                .expect("test setup")
        };
        assert!(accepts_gzip(&with("gzip, deflate, br")));
        assert!(accepts_gzip(&with("br;q=1.0, gzip;q=0.8")));
        assert!(!accepts_gzip(&with("gzip;q=0, br")));
        assert!(!accepts_gzip(&with("identity")));
        assert!(!accepts_gzip(&Request::new(())));
    }

    #[test]
    fn media_types_follow_the_extension() {
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("app.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("app.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("blob"), "application/octet-stream");
    }

    #[tokio::test]
    async fn a_directory_root_serves_its_files_and_nothing_beside_it() {
        let outer = tempfile::tempdir().expect("test setup");
        let dir = outer.path().join("dist");
        std::fs::create_dir(&dir).expect("test setup");
        std::fs::write(dir.join("index.html"), "<!doctype html>").expect("test setup");
        std::fs::write(dir.join("app.js"), "plain").expect("test setup");
        std::fs::write(dir.join("app.js.gz"), "zipped").expect("test setup");
        std::fs::write(outer.path().join("secret.txt"), "secret").expect("test setup");
        #[cfg(unix)]
        std::os::unix::fs::symlink(outer.path().join("secret.txt"), dir.join("link.txt"))
            .expect("test setup");
        let files = Files {
            root: WebRoot::Dir(dir.clone()),
        };
        let get = |path: &str, gzip: bool| {
            let mut b = Request::builder().uri(path);
            if gzip {
                b = b.header(header::ACCEPT_ENCODING, "gzip");
            }
            b.body(()).expect("test setup")
        };
        let r = answer(&files, &get("/", false)).await;
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(r.body().as_ref(), b"<!doctype html>");
        assert_eq!(
            r.headers()[header::CONTENT_SECURITY_POLICY],
            CONTENT_SECURITY_POLICY
        );
        assert_eq!(r.headers()[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        let plain = answer(&files, &get("/app.js", false)).await;
        assert_eq!(plain.body().as_ref(), b"plain");
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        let zipped = answer(&files, &get("/app.js", true)).await;
        assert_eq!(zipped.body().as_ref(), b"zipped");
        assert_eq!(zipped.headers()[header::CONTENT_ENCODING], "gzip");
        for outside in ["/../secret.txt", "/link.txt", "/missing.js"] {
            let r = answer(&files, &get(outside, false)).await;
            assert_eq!(r.status(), StatusCode::NOT_FOUND, "{outside}");
            assert!(!r.body().starts_with(b"secret"));
        }
        // Revalidation: the same ETag gives 304 with no body.
        let tag = plain.headers()[header::ETAG].clone();
        let again = Request::builder()
            .uri("/app.js")
            .header(header::IF_NONE_MATCH, tag)
            .body(())
            .expect("test setup");
        let r = answer(&files, &again).await;
        assert_eq!(r.status(), StatusCode::NOT_MODIFIED);
        assert!(r.body().is_empty());
    }

    #[tokio::test]
    async fn without_an_app_the_index_says_how_to_build_one() {
        let dir = tempfile::tempdir().expect("test setup");
        let files = Files {
            root: WebRoot::Dir(dir.path().to_owned()),
        };
        let r = answer(
            &files,
            &Request::builder().uri("/").body(()).expect("test setup"),
        )
        .await;
        assert_eq!(r.status(), StatusCode::NOT_FOUND);
        assert!(String::from_utf8_lossy(r.body()).contains("clients/web/check.sh"));
    }
}
