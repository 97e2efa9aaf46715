/// Command line of `openstore-bench`. Hand-parsed: the benchmark should not depend on more than it measures.
struct Options {
    var quick = false
    /// Measurements to run: `sign`, `bare`, `healthz`, `purchase` (`http` = the last three), `lifecycle`,
    /// `history`, `notifications`, `views`, `startup`, `client`, `manage`. Empty: all.
    var only: Set<String> = []
    var connections = 32
    var customers = 1000
    var warmUp = 1.0
    var duration = 4.0
    var rounds = 2
    var signRounds = 4
    var signRoundSeconds = 0.5
    var allowDebug = false
    var subscribers = 100_000
    /// Notifications in the backlog the delivery benchmark drains.
    var backlog = 1_000_000
    var historyStore = 1_000_000
    /// Timed renders of each demo store page (`views`).
    var renders = 2_000
    /// Customers stored before the backend's customer-info latency is measured.
    var backendCustomers = 100_000
    /// Purchases whose `Transaction.updates` latency is measured (`client`).
    var updatePurchases = 2_000
    /// `--database postgres://…`: purchases, history, lifecycle and backend ingest also on that PostgreSQL server
    /// (an empty database created on it per figure, dropped after), beside SQLite, in the same run.
    var database: String?

    static let usage = """
        usage: openstore-bench [--quick] [--only sign,bare,healthz,purchase,lifecycle,history,notifications,views,startup,client,manage,backend,idle,sktest|http] [--connections N]
                               [--duration SECONDS] [--warm-up SECONDS] [--rounds N] [--customers N] [--subscribers N] [--renders N]
                               [--allow-debug] [--database postgres://user:password@host:port/database]
          --quick        short smoke run (about 10 s); figures are rougher
          --only         run only these measurements (comma-separated)
          --connections  concurrent keep-alive connections (default 32)
          --duration     measuring window of each HTTP measurement (default 4 s)
          --warm-up      load before each window that is not counted (default 1 s)
          --rounds       HTTP rounds; each figure keeps its best (default 2)
          --customers    distinct customers the purchases are spread over (default 1000)
          --subscribers  monthly subscribers taken through a simulated year (default 100,000)
          --history-store  transactions in the store for the history-page figure (default 1,000,000)
          --backlog      notifications the delivery benchmark drains (default 1,000,000)
          --renders      timed renders of each demo store page (default 2,000)
          --backend-customers  customers stored for the backend's customer-info and memory figures (default 100,000)
          --allow-debug  run even though this is a debug build
          --database     also measure purchase, history, lifecycle and backend ingest on this PostgreSQL server,
                         beside SQLite (each figure creates an empty database there and drops it: needs CREATEDB)
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let next = rest.popFirst() else { throw BenchError("\(name) needs a value\n\(usage)") }
            return next
        }
        func number(_ name: String) throws -> Double {
            guard let number = Double(try value(name)), number > 0 else { throw BenchError("\(name) needs a positive number") }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick":
                options.quick = true
                options.warmUp = 0.5
                options.duration = 1.0
                options.rounds = 1
                options.signRounds = 2
                options.signRoundSeconds = 0.2
                options.subscribers = 5_000
                options.updatePurchases = 200
                options.backlog = 20_000
                options.historyStore = 50_000
                options.renders = 200
                options.backendCustomers = 5_000
            case "--only":
                for name in try value(argument).split(separator: ",").map(String.init) {
                    switch name {
                    case "http": options.only.formUnion(["bare", "healthz", "purchase"])
                    case "sign", "bare", "healthz", "purchase", "lifecycle", "history", "notifications", "views", "startup", "client", "manage", "backend", "idle", "sktest": options.only.insert(name)
                    default: throw BenchError("unknown measurement \(name)\n\(usage)")
                    }
                }
            case "--connections": options.connections = Int(try number(argument))
            case "--customers": options.customers = Int(try number(argument))
            case "--duration": options.duration = try number(argument)
            case "--warm-up": options.warmUp = try number(argument)
            case "--rounds": options.rounds = Int(try number(argument))
            case "--allow-debug": options.allowDebug = true
            case "--database": options.database = try value(argument)
            case "--subscribers": options.subscribers = Int(try number(argument))
            case "--backlog": options.backlog = Int(try number(argument))
            case "--history-store": options.historyStore = Int(try number(argument))
            case "--renders": options.renders = Int(try number(argument))
            case "--backend-customers": options.backendCustomers = Int(try number(argument))
            case "--help", "-h": throw BenchError(usage)
            default: throw BenchError("unknown argument \(argument)\n\(usage)")
            }
        }
        return options
    }

    func wants(_ name: String) -> Bool { only.isEmpty || only.contains(name) }
    var wantsHTTP: Bool { wants("bare") || wants("healthz") || wants("purchase") }
}
