import Foundation
import PackagePlugin

/// Puts a target's `Resources/` files inside its compiled code (`EmbeddedResources.data(named:)`),
/// so `openstore` is one file that runs from any folder: no resource bundle to ship beside it.
/// For an executable it also writes `BuildInfo.commit` from `OPENSTORE_BUILD_COMMIT` (set by
/// scripts/release.sh and scripts/test.sh), "unknown" without it.
@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let source = target as? SourceModuleTarget else { return [] }
        // Path-based API: the package's tools version is 6.0 (the URL forms need 6.1).
        let folder = URL(fileURLWithPath: source.directory.appending("Resources").string)
        let files = ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { !$0.hasDirectoryPath }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectory.appending("EmbeddedResources.swift")
        // Only executables carry the commit: a new commit then regenerates one small file of
        // `openstore` and relinks it, and leaves the library modules (and the tests) untouched.
        let given = ProcessInfo.processInfo.environment["OPENSTORE_BUILD_COMMIT"].flatMap { $0.isEmpty ? nil : $0 }
        let commit = source.kind == .executable ? given ?? "unknown" : "unknown"
        return [.buildCommand(
            displayName: "Embedding \(files.count) resource(s) in \(target.name)",
            executable: try context.tool(named: "embed-resources").path,
            arguments: [output.string, commit] + files.map(\.path),
            inputFiles: files.map { Path($0.path) }, outputFiles: [output])]
    }
}
