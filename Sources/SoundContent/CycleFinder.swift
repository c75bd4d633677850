/// Finds cycles in the graphs a bank must keep acyclic: the bus tree,
/// containers inside containers, and events posting events with no delay.
///
/// Iterative depth-first search, so a long chain in a big bank cannot
/// exhaust the stack.
struct CycleFinder {
    /// One cycle: the edge that closes it and the names around it
    /// (`["a", "b", "a"]`).
    struct Cycle {
        var closingEdge: BankReference
        var names: [String]
    }

    /// Outgoing edges by node; each edge's `name` is the node it leads to.
    private var edges: [String: [BankReference]] = [:]
    /// Nodes in the order edges were added, so results follow the document.
    private var nodes: [String] = []

    /// Adds the edge `from` → `edge.name`.
    mutating func add(from: String, _ edge: BankReference) {
        if edges[from] == nil { nodes.append(from) }
        edges[from, default: []].append(edge)
    }

    /// Every cycle, each reported once (at the edge the search closes it with).
    func cycles() -> [Cycle] {
        enum Mark { case onPath, done }
        var marks: [String: Mark] = [:]
        var found: [Cycle] = []
        for start in nodes where marks[start] == nil {
            // The path from `start`: each node with the index of its next edge to follow.
            var path: [(node: String, next: Int)] = [(start, 0)]
            marks[start] = .onPath
            while let (node, next) = path.last {
                let outgoing = edges[node] ?? []
                guard next < outgoing.count else {
                    marks[node] = .done
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let edge = outgoing[next]
                switch marks[edge.name] {
                case .onPath?:
                    let from = path.firstIndex { $0.node == edge.name }!
                    found.append(Cycle(closingEdge: edge, names: path[from...].map(\.node) + [edge.name]))
                case .done?: continue
                case nil:
                    marks[edge.name] = .onPath
                    path.append((edge.name, 0))
                }
            }
        }
        return found
    }
}
