/// What `openstore --version` prints: the release and the git commit it was built from
/// (BuildInfo is written by Plugins/EmbedResources; scripts/release.sh passes the commit).
enum OpenStoreVersion {
    static let number = "0.1.0"
    static let text = "\(number) (commit \(BuildInfo.commit))"
}
