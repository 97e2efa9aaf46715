/// Who decided a batch, and on which generation of that writer's memory: a fencing token.
///
/// A world applies its decisions to memory before their batch is durable, so the next decision
/// sees them. When one of its batches fails, the batches it decided afterwards rest on a change
/// that never happened; the group committer refuses them (every write of `scope` with an `epoch`
/// at or below the failed one's), and the world reloads its memory from the database under a
/// new epoch. The same token is what a future owner of a world on another instance would carry.
public struct WriteFence: Sendable, Hashable {
    /// The writer: one world instance (unique per process, not the world's name: a world deleted
    /// and made again starts afresh).
    public var scope: String
    /// The generation of the writer's memory the batch was decided on.
    public var epoch: Int

    /// A token for batches that writer `scope` decided on memory generation `epoch`.
    public init(scope: String, epoch: Int) {
        self.scope = scope
        self.epoch = epoch
    }
}
