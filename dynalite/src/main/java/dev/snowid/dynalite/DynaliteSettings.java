package dev.snowid.dynalite;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Optional;

/** The environment variables that decide which dynalite is used; none of them is a function setting. */
public final class DynaliteSettings {

    /** A folder with dynalite installed (node_modules/dynalite), instead of finding or installing one. */
    public static final String DYNALITE_DIR = "SNOWID_DYNALITE_DIR";

    /**
     * Not ours (the XDG base directory rule): where per-user caches go, {@code ~/.cache} when
     * unset. Not a {@code SNOWID_*} setting, so no deployment sets it.
     */
    public static final String XDG_CACHE_HOME = "XDG_CACHE_HOME";

    private DynaliteSettings() {
    }

    /** The dynalite folder ({@value #DYNALITE_DIR}), if one is set. */
    public static Optional<Path> dynaliteDir(Map<String, String> env) {
        return string(env, DYNALITE_DIR).map(Paths::get);
    }

    /** The per-user cache folder: {@value #XDG_CACHE_HOME}, else {@code ~/.cache}. */
    public static Path cacheHome(Map<String, String> env) {
        return string(env, XDG_CACHE_HOME).map(Paths::get)
                .orElseGet(() -> Paths.get(System.getProperty("user.home"), ".cache"));
    }

    private static Optional<String> string(Map<String, String> env, String name) {
        return Optional.ofNullable(env.get(name)).filter(v -> !v.isEmpty());
    }
}
