import SQLiteNIO
import VaporCSQLite
import StoreShared

extension StorageUnavailable {
    /// SQLite could not write because of the disk, not the data: it is full (SQLITE_FULL),
    /// failing (SQLITE_IOERR) or read-only (SQLITE_READONLY). The transaction was rolled back, so
    /// nothing of it was acknowledged; the store answers 503 until space returns (issue 15: a
    /// full disk answered 500 internalError).
    static func sqliteWrite(_ error: any Error) -> StorageUnavailable? {
        if let error = error as? SQLiteCallError { return sqliteWrite(error) }
        guard let error = error as? SQLiteError else { return nil }
        switch error.reason {
        case .full: return StorageUnavailable("the disk holding the SQLite database is full: \(error.message)")
        // SQLite reports its extended codes (SQLITE_IOERR_WRITE for a write the kernel refused,
        // e.g. EFBIG past the file-size limit: compat/test_observability_faults.py), not only the primary ones.
        case .ioError, .ioErrorFailedWrite, .ioErrorFailedSync, .ioErrorFailedDirSync, .ioErrorFailedTruncate,
             .ioErrorFailedSharedMemSize, .ioErrorFailedSharedMemMap, .ioErrorFailedMemoryMap, .ioErrorFailedDelete:
            return StorageUnavailable("SQLite could not write to its disk: \(error.message)")
        case .readOnly, .readonlyCantLock, .readonlyInRollback, .readonlyDirectory, .readonlyInRecovery:
            return StorageUnavailable("the SQLite database is read-only: \(error.message)")
        default: return nil
        }
    }

    /// The same, for the batch writer's direct calls of SQLite's C API.
    private static func sqliteWrite(_ error: SQLiteCallError) -> StorageUnavailable? {
        switch error.primary {
        case SQLITE_FULL: return StorageUnavailable("the disk holding the SQLite database is full: \(error.message)")
        case SQLITE_IOERR: return StorageUnavailable("SQLite could not write to its disk: \(error.message)")
        case SQLITE_READONLY: return StorageUnavailable("the SQLite database is read-only: \(error.message)")
        default: return nil
        }
    }
}
