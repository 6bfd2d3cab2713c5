package dev.snowid.simulator;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import sun.misc.Unsafe;

/**
 * What a snapshot restore does to a process: its whole object graph copied, field by field, as
 * CRaC copies the heap. Objects of the simulated world (the network, the tables, the scheduler)
 * are shared, not copied; some are replaced by the copy's own (its clock, its renewer's ticks).
 * Immutable JDK values are shared. A lambda in the graph cannot be copied field by field and
 * fails the copy, naming its class.
 */
final class DeepCopy {

    private static final Unsafe UNSAFE = unsafe();
    private static final Map<Class<?>, List<Field>> FIELDS = new java.util.concurrent.ConcurrentHashMap<>();

    private final Map<Object, Object> copies = new IdentityHashMap<>();
    private final Predicate<Object> shared;

    private DeepCopy(Map<Object, Object> replacements, Predicate<Object> shared) {
        this.copies.putAll(replacements);
        this.shared = shared;
    }

    /** A copy of {@code root}'s graph; {@code replacements} map originals to the copy's own objects. */
    @SuppressWarnings("unchecked")
    static <T> T of(T root, Map<Object, Object> replacements, Predicate<Object> shared) {
        return (T) new DeepCopy(replacements, shared).copy(root);
    }

    private Object copy(Object original) {
        if (original == null) {
            return null;
        }
        Object done = copies.get(original);
        if (done != null) {
            return done;
        }
        Class<?> type = original.getClass();
        if (immutable(type) || shared.test(original)) {
            return original;
        }
        if (type.isHidden() || type.isSynthetic()) {
            throw new IllegalStateException("cannot copy a lambda (" + type.getName() + ") in a snapshot: give it a named class");
        }
        if (type.isArray()) {
            int length = Array.getLength(original);
            Object array = Array.newInstance(type.getComponentType(), length);
            copies.put(original, array);
            if (type.getComponentType().isPrimitive()) {
                System.arraycopy(original, 0, array, 0, length);
            } else {
                for (int i = 0; i < length; i++) {
                    Array.set(array, i, copy(Array.get(original, i)));
                }
            }
            return array;
        }
        Object fresh;
        try {
            fresh = UNSAFE.allocateInstance(type);
        } catch (InstantiationException e) {
            throw new IllegalStateException("cannot copy a " + type.getName(), e);
        }
        copies.put(original, fresh);
        for (Field field : fields(type)) {
            long offset = UNSAFE.objectFieldOffset(field);
            Class<?> kind = field.getType();
            if (kind == long.class) {
                UNSAFE.putLong(fresh, offset, UNSAFE.getLong(original, offset));
            } else if (kind == int.class) {
                UNSAFE.putInt(fresh, offset, UNSAFE.getInt(original, offset));
            } else if (kind == boolean.class) {
                UNSAFE.putBoolean(fresh, offset, UNSAFE.getBoolean(original, offset));
            } else if (kind == byte.class) {
                UNSAFE.putByte(fresh, offset, UNSAFE.getByte(original, offset));
            } else if (kind == short.class) {
                UNSAFE.putShort(fresh, offset, UNSAFE.getShort(original, offset));
            } else if (kind == char.class) {
                UNSAFE.putChar(fresh, offset, UNSAFE.getChar(original, offset));
            } else if (kind == double.class) {
                UNSAFE.putDouble(fresh, offset, UNSAFE.getDouble(original, offset));
            } else if (kind == float.class) {
                UNSAFE.putFloat(fresh, offset, UNSAFE.getFloat(original, offset));
            } else {
                UNSAFE.putObject(fresh, offset, copy(UNSAFE.getObject(original, offset)));
            }
        }
        return fresh;
    }

    private static boolean immutable(Class<?> type) {
        return type == String.class || type == Long.class || type == Integer.class || type == Boolean.class || type == Class.class
                || type.isEnum() || (type.getSuperclass() != null && type.getSuperclass().isEnum())
                || Number.class.isAssignableFrom(type) && type.getName().startsWith("java.lang.")
                || type.getName().startsWith("java.time.");
    }

    private static List<Field> fields(Class<?> type) {
        return FIELDS.computeIfAbsent(type, t -> {
            List<Field> all = new ArrayList<>();
            for (Class<?> c = t; c != null; c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(field.getModifiers())) {
                        all.add(field);
                    }
                }
            }
            return all;
        });
    }

    private static Unsafe unsafe() {
        try {
            Field field = Unsafe.class.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            return (Unsafe) field.get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("sun.misc.Unsafe is needed to copy a snapshot", e);
        }
    }
}
