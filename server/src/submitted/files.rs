//! A submission's file: checked when it comes in (its name, its size, an archive's contents
//! and entry point), and unpacked once per version into the cache the sandbox mounts
//! read-only as `/bot`.

use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

/// The largest file a submission may be.
pub const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
/// The most an archive may hold once unpacked, and its most files.
pub const MAX_UNPACKED_BYTES: u64 = 50 * 1024 * 1024;
/// The most files an archive may hold.
pub const MAX_ARCHIVE_FILES: usize = 1000;

/// How a bot runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runtime {
    /// A `.py` entry, run by the sandbox's Python.
    Python,
    /// A program for this machine (or a script with a `#!` line).
    Executable,
}

impl Runtime {
    /// Its name on the wire and in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            Runtime::Python => "python",
            Runtime::Executable => "executable",
        }
    }

    /// From its name.
    pub fn parse(s: &str) -> Option<Runtime> {
        match s {
            "python" => Some(Runtime::Python),
            "executable" => Some(Runtime::Executable),
            _ => None,
        }
    }

    fn of(entry: &str) -> Runtime {
        if entry.to_ascii_lowercase().ends_with(".py") {
            Runtime::Python
        } else {
            Runtime::Executable
        }
    }
}

/// A submission, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The file's name (its last path part).
    pub file_name: String,
    /// The path that runs, relative to the bot's directory.
    pub entry: String,
    /// How it runs.
    pub runtime: Runtime,
    /// Whether the file is an archive.
    pub archive: bool,
}

/// A relative path of plain parts (no `..`, no root, nothing hidden in its parts), with `/`.
fn plain_relative(p: &str) -> Option<String> {
    if p.is_empty() || p.len() > 255 || p.contains('\\') || p.contains('\0') {
        return None;
    }
    let path = Path::new(p);
    let mut parts = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(s) => parts.push(s.to_str()?.to_owned()),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Checks a submission; the error says what is wrong, for the submitter.
pub fn check(file_name: &str, content: &[u8], entry: &str) -> Result<Checked, String> {
    if content.is_empty() {
        return Err("the file is empty".into());
    }
    if content.len() > MAX_FILE_BYTES {
        return Err(format!(
            "the file is {} bytes: at most {MAX_FILE_BYTES}",
            content.len()
        ));
    }
    let base = Path::new(file_name.trim())
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| plain_relative(n).is_some() && !n.starts_with('.'))
        .ok_or_else(|| format!("{file_name:?} is not a file name"))?
        .to_owned();
    if !base.to_ascii_lowercase().ends_with(".zip") {
        if !entry.trim().is_empty() && entry.trim() != base {
            return Err("an entry point is only for an archive (a .zip file)".into());
        }
        return Ok(Checked {
            runtime: Runtime::of(&base),
            entry: base.clone(),
            file_name: base,
            archive: false,
        });
    }
    let entry = plain_relative(entry.trim()).ok_or_else(|| {
        "an archive needs its entry point: the path of the file to run".to_owned()
    })?;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(content))
        .map_err(|e| format!("not a zip archive: {e}"))?;
    if zip.len() > MAX_ARCHIVE_FILES {
        return Err(format!(
            "the archive holds {} files: at most {MAX_ARCHIVE_FILES}",
            zip.len()
        ));
    }
    let mut total = 0u64;
    let mut found = false;
    let mut files = std::collections::BTreeSet::new();
    let mut dirs = std::collections::BTreeSet::new();
    for i in 0..zip.len() {
        let f = zip
            .by_index_raw(i)
            .map_err(|e| format!("the archive is damaged: {e}"))?;
        let raw = f
            .name()
            .map_err(|e| format!("the archive holds a bad name: {e}"))?
            .into_owned();
        if f.is_symlink() {
            return Err(format!("{raw:?} is a symbolic link: not allowed"));
        }
        let name = plain_relative(raw.trim_end_matches('/'))
            .ok_or_else(|| format!("{raw:?} is not a plain relative path"))?;
        total = total.saturating_add(f.size());
        if total > MAX_UNPACKED_BYTES {
            return Err(format!(
                "the archive unpacks to more than {MAX_UNPACKED_BYTES} bytes"
            ));
        }
        if name == entry && !f.is_dir() {
            found = true;
        }
        // Every directory above a file, and the file itself: a name that is both cannot be
        // unpacked.
        for d in Path::new(&name).ancestors().skip(1) {
            if !d.as_os_str().is_empty() {
                dirs.insert(d.to_path_buf());
            }
        }
        if f.is_dir() {
            dirs.insert(PathBuf::from(&name));
        } else if !files.insert(PathBuf::from(&name)) {
            return Err(format!("the archive holds {name:?} twice"));
        }
    }
    if let Some(both) = files.intersection(&dirs).next() {
        return Err(format!(
            "{} is both a file and a directory in the archive",
            both.display()
        ));
    }
    if !found {
        return Err(format!("the archive holds no file {entry:?}"));
    }
    // Each file read once now (within the size checked above), so that an archive that
    // cannot be unpacked (encrypted, an unknown compression, damaged data) is refused here
    // rather than failing every match later.
    let mut buf = [0u8; 64 * 1024];
    for i in 0..zip.len() {
        let mut f = zip
            .by_index(i)
            .map_err(|e| format!("the archive cannot be unpacked: {e}"))?;
        let mut left = MAX_UNPACKED_BYTES + 1;
        loop {
            let n = f
                .read(&mut buf)
                .map_err(|e| format!("the archive cannot be unpacked: {e}"))?;
            if n == 0 {
                break;
            }
            left = left.saturating_sub(n as u64);
            if left == 0 {
                return Err(format!(
                    "the archive unpacks to more than {MAX_UNPACKED_BYTES} bytes"
                ));
            }
        }
    }
    Ok(Checked {
        runtime: Runtime::of(&entry),
        entry,
        file_name: base,
        archive: true,
    })
}

/// Unpacks a checked submission into `dir` (made here; its parent must exist): the file
/// itself, or the archive's files. The entry point is made executable.
pub fn unpack(dir: &Path, checked: &Checked, content: &[u8]) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let io = |e: std::io::Error| format!("cannot unpack the bot: {e}");
    std::fs::create_dir_all(dir).map_err(io)?;
    if checked.archive {
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(content))
            .map_err(|e| format!("not a zip archive: {e}"))?;
        let mut total = 0u64;
        for i in 0..zip.len() {
            let mut f = zip
                .by_index(i)
                .map_err(|e| format!("the archive is damaged: {e}"))?;
            let raw = f
                .name()
                .map_err(|e| format!("the archive holds a bad name: {e}"))?
                .into_owned();
            let Some(name) = plain_relative(raw.trim_end_matches('/')) else {
                return Err(format!("{raw:?} is not a plain relative path"));
            };
            let to: PathBuf = dir.join(&name);
            if f.is_dir() {
                std::fs::create_dir_all(&to).map_err(io)?;
                continue;
            }
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(io)?;
            }
            // Read no more than the limit, whatever the archive claims.
            let mut bytes = Vec::new();
            (&mut f)
                .take(MAX_UNPACKED_BYTES.saturating_sub(total) + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| format!("the archive is damaged: {e}"))?;
            total += bytes.len() as u64;
            if total > MAX_UNPACKED_BYTES {
                return Err(format!(
                    "the archive unpacks to more than {MAX_UNPACKED_BYTES} bytes"
                ));
            }
            std::fs::File::create(&to)
                .and_then(|mut out| out.write_all(&bytes))
                .map_err(io)?;
        }
    } else {
        std::fs::write(dir.join(&checked.file_name), content).map_err(io)?;
    }
    // Readable by the bot's user whatever the server's umask; nothing writable but by the
    // server; the entry point executable.
    open_up(dir).map_err(io)?;
    let entry = dir.join(&checked.entry);
    std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(0o755)).map_err(io)?;
    Ok(())
}

/// Sets 0755 on `dir` and the directories under it, 0644 on its files.
fn open_up(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))?;
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        if e.file_type()?.is_dir() {
            open_up(&e.path())?;
        } else {
            std::fs::set_permissions(e.path(), std::fs::Permissions::from_mode(0o644))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = std::io::Cursor::new(Vec::new());
        {
            let mut z = zip::ZipWriter::new(&mut out);
            for (name, bytes) in files {
                z.start_file(*name, zip::write::SimpleFileOptions::default())
                    .expect("start");
                z.write_all(bytes).expect("write");
            }
            z.finish().expect("finish");
        }
        out.into_inner()
    }

    #[test]
    fn single_files_and_archives_are_checked_and_unpacked() {
        let c = check("bot.py", b"print()", "").expect("a python file");
        assert_eq!(
            (c.runtime, c.entry.as_str(), c.archive),
            (Runtime::Python, "bot.py", false)
        );
        let c = check("/home/me/mybot", b"\x7fELF", "").expect("a program");
        assert_eq!(
            (c.runtime, c.file_name.as_str()),
            (Runtime::Executable, "mybot")
        );
        let z = zip_of(&[("src/main.py", b"import lib"), ("src/lib.py", b"x = 1")]);
        let c = check("bot.zip", &z, "src/main.py").expect("an archive");
        assert_eq!((c.runtime, c.archive), (Runtime::Python, true));
        let dir = tempfile::tempdir().expect("dir");
        unpack(&dir.path().join("v1"), &c, &z).expect("unpack");
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &str| {
            std::fs::metadata(dir.path().join(p))
                .expect("unpacked")
                .permissions()
                .mode()
                & 0o7777
        };
        assert_eq!(
            (
                mode("v1/src"),
                mode("v1/src/lib.py"),
                mode("v1/src/main.py")
            ),
            (0o755, 0o644, 0o755)
        );
        assert_eq!(
            std::fs::read(dir.path().join("v1/src/lib.py")).expect("read"),
            b"x = 1"
        );
    }

    #[test]
    fn bad_submissions_are_refused_with_what_is_wrong() {
        let z = zip_of(&[("main.py", b"x")]);
        for (file, content, entry, why) in [
            ("bot.py", &b""[..], "", "empty"),
            ("..", &b"x"[..], "", "not a file name"),
            (".hidden", &b"x"[..], "", "not a file name"),
            ("bot.py", &b"x"[..], "other.py", "only for an archive"),
            ("bot.zip", &b"not a zip"[..], "main.py", "not a zip"),
            ("bot.zip", &z[..], "", "entry point"),
            ("bot.zip", &z[..], "../main.py", "entry point"),
            ("bot.zip", &z[..], "missing.py", "no file"),
        ] {
            let e = check(file, content, entry).expect_err(why);
            assert!(e.contains(why), "{file} {entry}: {e}");
        }
        let evil = zip_of(&[("../../etc/passwd", b"x"), ("main.py", b"x")]);
        assert!(
            check("bot.zip", &evil, "main.py")
                .expect_err("a path out of the directory")
                .contains("plain relative")
        );
        let clash = zip_of(&[("a", b"x"), ("a/b", b"y"), ("main.py", b"x")]);
        assert!(
            check("bot.zip", &clash, "main.py")
                .expect_err("a file and a directory of one name")
                .contains("both a file and a directory")
        );
        // A stored entry whose data is cut short cannot be unpacked: refused now.
        let mut cut = {
            let mut out = std::io::Cursor::new(Vec::new());
            let mut z = zip::ZipWriter::new(&mut out);
            let stored = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored);
            z.start_file("main.py", stored).expect("start");
            z.write_all(b"print('a long enough line of code')")
                .expect("write");
            z.finish().expect("finish");
            out.into_inner()
        };
        let at = cut
            .windows(5)
            .position(|w| w == b"print")
            .expect("the stored data");
        cut[at..at + 10].copy_from_slice(b"XXXXXXXXXX");
        assert!(check("bot.zip", &cut, "main.py").is_err());
        let big = vec![0u8; MAX_FILE_BYTES + 1];
        assert!(
            check("bot", &big, "")
                .expect_err("too big")
                .contains("at most")
        );
    }
}
