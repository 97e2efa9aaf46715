import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Apple's `sendAttemptResult` (reference §8), read from what really happened to an attempt.
public enum SendAttemptResult: String, Sendable, CaseIterable {
    case success = "SUCCESS"
    case timedOut = "TIMED_OUT"
    case tlsIssue = "TLS_ISSUE"
    case circularRedirect = "CIRCULAR_REDIRECT"
    case noResponse = "NO_RESPONSE"
    case socketIssue = "SOCKET_ISSUE"
    case unsupportedCharset = "UNSUPPORTED_CHARSET"
    case invalidResponse = "INVALID_RESPONSE"
    case prematureClose = "PREMATURE_CLOSE"
    case unsuccessfulHTTPResponseCode = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    case other = "OTHER"

    /// Apple: "Send HTTP 200, or any HTTP code between 200 and 206, if the post was successful."
    public init(status: Int) {
        self = (200...206).contains(status) ? .success : .unsuccessfulHTTPResponseCode
    }

    /// Classifies a failed send by Apple's meanings: no answer before the timeout (TIMED_OUT); a
    /// network error such as a refused or reset connection (SOCKET_ISSUE); the connection closed
    /// while the send was in progress (PREMATURE_CLOSE); an answer that is not HTTP
    /// (INVALID_RESPONSE); a redirect loop (CIRCULAR_REDIRECT); TLS set-up or certificate failure
    /// (TLS_ISSUE); anything else (OTHER).
    public init(error: any Error) {
        if let error = error as? HTTPClientError {
            if [.connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded].contains(error) {
                self = .timedOut
            } else if error == .tlsHandshakeTimeout {
                self = .tlsIssue
            } else if error == .remoteConnectionClosed {
                self = .prematureClose
            } else if error == .redirectCycleDetected || error == .redirectLimitReached {
                self = .circularRedirect
            } else if [.invalidURL, .emptyHost, .emptyScheme].contains(error) {
                self = .other
            } else if error == .bodyLengthMismatch {
                self = .invalidResponse
            } else {
                self = Self.byName(error)
            }
            return
        }
        if error is HTTPParserError { self = .invalidResponse; return }
        if let io = error as? IOError {
            self = io.errnoCode == 104 /* ECONNRESET */ || io.errnoCode == 32 /* EPIPE */ ? .prematureClose : .socketIssue
            return
        }
        if let channel = error as? ChannelError {
            switch channel {
            case .connectTimeout: self = .timedOut
            case .eof, .outputClosed, .ioOnClosedChannel, .alreadyClosed: self = .prematureClose
            default: self = .socketIssue
            }
            return
        }
        self = Self.byName(error)
    }

    /// Errors from modules this target does not import (NIOSSL, NIOPosix's connection errors),
    /// recognised by their type.
    private static func byName(_ error: any Error) -> SendAttemptResult {
        let name = String(reflecting: type(of: error)) + " " + String(describing: error)
        if name.contains("NIOSSL") || name.contains("BoringSSL") || name.contains("TLS") { return .tlsIssue }
        if name.contains("NIOConnectionError") || name.contains("connection refused") || name.contains("Connection refused")
            || name.contains("SocketAddressError") || name.contains("NXDOMAIN") { return .socketIssue }
        if name.contains("Timeout") || name.contains("timeout") { return .timedOut }
        return .other
    }
}
