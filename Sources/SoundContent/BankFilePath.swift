import Foundation

/// Where a sound file named in a bank lives, and whether the bank may read it.
///
/// Banks can come from mods or downloads, so by default a bank reads only
/// files inside its own folder: an absolute path, a relative path that climbs
/// out with `..`, or a symbolic link inside the folder that points out of it,
/// is refused unless ``BankLoadOptions/allowFilesOutsideBankFolder`` is set.
enum BankFilePath {
    /// `path` made absolute (against the current directory) and normalised:
    /// no `.`, `..` or repeated `/`.
    static func absolute(_ path: String) -> String {
        let base = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return normalise(base)
    }

    /// Resolves `file` (as written in the bank) in `folder` (absolute,
    /// normalised), returning the absolute path or why it is refused.
    static func resolve(_ file: String, in folder: String, options: BankLoadOptions) -> Result<String, Refusal> {
        guard !file.isEmpty else { return .failure(Refusal("the file name is empty")) }
        guard !file.utf8.contains(0) else { return .failure(Refusal("the file name contains a NUL character")) }
        let outsideAllowed = options.allowFilesOutsideBankFolder
        if file.hasPrefix("/"), !outsideAllowed {
            return .failure(Refusal("'\(file)' is an absolute path; a bank's files must be inside its folder "
                + "(allowFilesOutsideBankFolder lets a trusted bank use other files)"))
        }
        let resolved = file.hasPrefix("/") ? normalise(file) : normalise(folder + "/" + file)
        if !outsideAllowed, !isInside(resolved, folder) {
            return .failure(Refusal("'\(file)' climbs out of the bank's folder with '..' "
                + "(allowFilesOutsideBankFolder lets a trusted bank use other files)"))
        }
        var status = stat()
        let exists = stat(resolved, &status) == 0
        if exists, !outsideAllowed, let real = realPath(resolved), let realFolder = realPath(folder),
            !isInside(real, realFolder)
        {
            return .failure(Refusal("'\(file)' is a symbolic link (or inside one) that leads out of the bank's "
                + "folder, to '\(real)' (allowFilesOutsideBankFolder lets a trusted bank use other files)"))
        }
        if options.checkFilesExist {
            guard exists else { return .failure(Refusal("the file '\(resolved)' does not exist")) }
            guard status.st_mode & S_IFMT == S_IFREG else {
                return .failure(Refusal("'\(resolved)' is not a regular file"))
            }
        }
        return .success(resolved)
    }

    /// Why a file path was refused (a sentence for a ``BankIssue``).
    struct Refusal: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func isInside(_ path: String, _ folder: String) -> Bool {
        folder == "/" ? path.hasPrefix("/") : path.hasPrefix(folder + "/")
    }

    private static func normalise(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
