package dev.panamax.bindgen.importer;

import java.util.ArrayList;
import java.util.List;

/**
 * What a re-import found changed in the headers since the declarations file was written: entries
 * added, removed and changed, each a line such as {@code function sqlite3_open: parameter 1 ppDb:
 * sqlite3** -> i32}. Annotations a person added are kept wherever the C type they annotate is
 * unchanged.
 */
public record Changes(List<String> added, List<String> removed, List<String> changed) {
    public Changes {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        changed = List.copyOf(changed);
    }

    /** The changes of a first import: everything is added. */
    static Changes none() {
        return new Changes(List.of(), List.of(), List.of());
    }

    public boolean isEmpty() {
        return added.isEmpty() && removed.isEmpty() && changed.isEmpty();
    }

    /** One line per change, {@code + added}, {@code - removed}, {@code ~ changed}. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        added.forEach(a -> out.add("+ " + a));
        removed.forEach(r -> out.add("- " + r));
        changed.forEach(c -> out.add("~ " + c));
        return out;
    }
}
