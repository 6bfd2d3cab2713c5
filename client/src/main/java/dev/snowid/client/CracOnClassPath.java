package dev.snowid.client;

/**
 * Whether {@code org.crac} is on the class path. Asked before {@link SnapshotHooks}, the one class
 * that names it, is loaded: without it, the client runs as if CRaC did not exist.
 */
final class CracOnClassPath {

    private CracOnClassPath() {
    }

    static boolean present() {
        try {
            Class.forName("org.crac.Core", false, CracOnClassPath.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError absent) {
            return false;
        }
    }
}
