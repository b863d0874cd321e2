package dev.panamax.bindgen.decl;

import java.util.List;
import java.util.Map;

/**
 * An entry of the {@code errors} section: how a returned code becomes an exception.
 *
 * @param type    the integer type of the code
 * @param success the codes that mean success
 * @param names   symbolic names of failure codes
 */
public record ErrorConvention(String name, TypeRef type, List<Long> success, Map<Long, String> names, Location location) {
    public ErrorConvention {
        success = List.copyOf(success);
        names = Map.copyOf(names);
    }
}
