extension BankDecoder {
    /// A curve: `{"points": [[x, y], …], "shape": "linear"}` or just the
    /// list of points. Points need finite numbers, `x` strictly increasing
    /// and within `xRange`, `y` within `yRange`.
    mutating func curve(
        _ node: JSONNode, at path: JSONPath, xRange: ClosedRange<Double>, xUnit: String,
        yRange: ClosedRange<Double>, yUnit: String
    ) -> Curve? {
        var pointsNode = node, pointsPath = path, shape = Curve.Shape.linear
        if case .object = node.value {
            guard let fields = object(node, at: path, what: "a curve", required: ["points"], optional: ["shape"]),
                let points = fields["points"]
            else { return nil }
            shape = choice(fields, "shape", default: .linear)
            pointsNode = points
            pointsPath = path.key("points")
        }
        guard let elements = listValue(pointsNode, at: pointsPath, what: "a curve's points") else { return nil }
        guard !elements.isEmpty else {
            report(pointsPath, at: pointsNode.offset, "a curve needs at least one point")
            return nil
        }
        var points: [(x: Double, y: Double)] = []
        var valid = true
        for (index, element) in elements.enumerated() {
            let pointPath = pointsPath.index(index)
            guard let pair = listValue(element, at: pointPath, what: "a point [x, y]") else {
                valid = false
                continue
            }
            guard pair.count == 2 else {
                report(pointPath, at: element.offset, "a point is [x, y] but this one has \(pair.count) number(s)")
                valid = false
                continue
            }
            guard let x = numberValue(pair[0], at: pointPath.index(0), range: xRange, unit: xUnit),
                let y = numberValue(pair[1], at: pointPath.index(1), range: yRange, unit: yUnit)
            else {
                valid = false
                continue
            }
            if let previous = points.last, x <= previous.x {
                report(pointPath, at: element.offset, x == previous.x
                       ? "x \(x.formatted) appears twice; each x may have one point"
                       : "x \(x.formatted) comes after x \(previous.x.formatted); points must be sorted by x")
                valid = false
            }
            points.append((x, y))
        }
        return valid ? Curve(points: points, shape: shape) : nil
    }

    /// A `"attenuations"` entry.
    mutating func attenuation(_ name: String, _ node: JSONNode, at path: JSONPath) -> BankAttenuation? {
        guard
            let fields = object(node, at: path, what: "attenuation '\(name)'", required: ["volume"],
                                optional: ["lowPass", "spatialize", "spread", "auxSend"])
        else { return nil }
        let distances = BankLimits.distance
        let volume = fields["volume"].flatMap {
            curve($0, at: path.key("volume"), xRange: distances, xUnit: "(distance)", yRange: BankLimits.volumeDB, yUnit: "dB")
        }
        let lowPass = fields["lowPass"].flatMap {
            curve($0, at: path.key("lowPass"), xRange: distances, xUnit: "(distance)",
                  yRange: BankLimits.lowPassHz, yUnit: "Hz")
        }
        let spread = fields["spread"].flatMap {
            curve($0, at: path.key("spread"), xRange: distances, xUnit: "(distance)",
                  yRange: BankLimits.spreadPercent, yUnit: "%")
        }
        let auxSend = fields["auxSend"].flatMap {
            curve($0, at: path.key("auxSend"), xRange: distances, xUnit: "(distance)", yRange: BankLimits.volumeDB, yUnit: "dB")
        }
        let spatialize = bool(fields, "spatialize", default: true)
        guard let volume else { return nil }
        return BankAttenuation(
            name: name, volume: volume, lowPass: lowPass, spatialize: spatialize, spread: spread, auxSend: auxSend)
    }
}
