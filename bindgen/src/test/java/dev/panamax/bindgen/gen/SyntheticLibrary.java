package dev.panamax.bindgen.gen;

/**
 * A declarations file of any size for scale tests: {@code functions} functions of six shapes in
 * turn (handles with statuses, arrays with lengths, strings and errcodes, structs by value, out-arrays
 * at {@code critical_heap}, returned out-parameters; a third batchable), one handle type and one struct
 * per ten functions, one constant per function, and at the end two functions libc really has
 * ({@code abs}, {@code labs}), so calls through the last part of a split class can be checked.
 */
final class SyntheticLibrary {
    private SyntheticLibrary() {}

    static String yaml(int functions) {
        int types = Math.max(1, functions / 10);
        StringBuilder b = new StringBuilder();
        b.append("format: 1\nlibrary: scale\nsonames: [c, libc.so.6]\npackage: org.example.scale\nclass: Scale\n\ntypes:\n");
        for (int k = 0; k < types; k++) {
            b.append("  sc_obj").append(k).append(": {handle: opaque, release: sc_release").append(k).append("}\n");
            b.append("  SPoint").append(k).append(": {struct: [[f32, x], [i32, y").append(k).append("]]}\n");
        }
        b.append("\nconstants:\n");
        for (int i = 0; i < functions; i++) b.append("  SC_C").append(i).append(": ").append(i * 7L).append('\n');
        b.append("\nerrors:\n  sc_status:\n    type: i32\n    success: [0]\n    names: {-1: SC_EFAIL, -2: SC_ENOMEM}\n");
        b.append("\nfunctions:\n");
        for (int k = 0; k < types; k++) {
            b.append("  - {name: sc_release").append(k).append(", params: [[sc_obj").append(k).append(", obj]]}\n");
        }
        for (int i = 0; i < functions; i++) {
            int k = i % types;
            String f = "  - name: sc_f" + i + "\n";
            b.append(f).append(switch (i % 6) {
                case 0 -> "    returns: {type: i32, status: sc_status}\n    params: [[sc_obj" + k + ", obj], {name: values, type: f32*, length: count}, [u64, count]]\n";
                case 1 -> "    returns: f64\n    params: [[f64, a], [i32, b], [ptr, p]]\n    tier: critical\n";
                case 2 -> "    returns: {type: sc_obj" + k + ", ownership: owned}\n    params: [{name: name, type: char*, nullable: true}, {name: err, type: i32*, dir: out, errcode: sc_status}]\n";
                case 3 -> "    returns: SPoint" + k + "\n    params: [[SPoint" + k + ", a], [i64, scale]]\n";
                case 4 -> "    params: [{name: out, type: i64*, dir: out, length: n}, [i32, n]]\n    tier: critical_heap\n";
                default -> "    returns: {type: i32, status: sc_status}\n    params: [[sc_obj" + k + ", obj], {name: size, type: u64*, dir: out}]\n";
            });
            if (i % 3 == 0) b.append("    batchable: true\n");
        }
        b.append("  - {name: abs, returns: i32, params: [[i32, x]], tier: critical}\n");
        b.append("  - {name: labs, returns: i64, params: [[i64, x]], tier: critical}\n");
        return b.toString();
    }
}
