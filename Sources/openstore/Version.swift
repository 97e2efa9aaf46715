/// What `openstore --version` prints: the release and the git commit it was built from
/// (BuildInfo is written by Plugins/EmbedResources from OPENSTORE_BUILD_COMMIT, which
/// scripts/release.sh and scripts/test.sh set; a plain `swift build` says "commit unknown").
enum OpenStoreVersion {
    static let number = "0.1.0"
    static let text = "\(number) (commit \(BuildInfo.commit))"
}
