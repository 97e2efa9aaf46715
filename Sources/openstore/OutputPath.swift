import ArgumentParser
import Foundation

/// Checks on a file a command is about to write. An atomic write renames a new file over the path,
/// so as root `--out /dev/full` would replace the device node itself: refuse anything that exists
/// and is not a regular file, before any work is done.
enum OutputPath {
    static func checkWritable(_ path: String, option: String) throws {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }  // not there yet: it will be created
        if (status.st_mode & S_IFMT) != S_IFREG {
            let kind = (status.st_mode & S_IFMT) == S_IFDIR ? "a folder" : "not a regular file"
            throw ValidationError("\(option) \(path) is \(kind): give the path of a file to write")
        }
    }
}
