package dev.snowid.simulator;

import java.security.Provider;
import java.security.SecureRandom;
import java.security.SecureRandomSpi;
import java.security.Security;
import java.util.Random;

/**
 * Public, and loaded once per JVM even under a mutant's class loader (PlantedBugsTest): the
 * provider is global, so its stream must be too.
 *
 * <p>Production draws its randomness from a fresh {@code new SecureRandom()} per acquisition (owner
 * tokens, request and claim ids, slot choice), which is what keeps SnapStart copies apart. The
 * simulator leaves that code as it is and owns the randomness through the JCA's own seam: a
 * provider put first in the list, whose {@code SecureRandom} draws from the stream of the simulated
 * process running now. Each process, and each restored copy of one, has its own seeded stream;
 * the world's events draw from the run's own. Outside a run the JDK's generator answers.
 */
public final class SeededRandomness {

    static final String PROVIDER = "snowid-simulator";
    private static final ThreadLocal<Random> CURRENT = new ThreadLocal<>();

    private SeededRandomness() {
    }

    /** Puts the provider first; idempotent. */
    public static synchronized void install() {
        if (Security.getProvider(PROVIDER) == null) {
            Security.insertProviderAt(new SimulatorProvider(), 1);
        }
    }

    /** Makes {@code stream} the one drawn from until the returned one is put back. */
    public static Random use(Random stream) {
        Random before = CURRENT.get();
        CURRENT.set(stream);
        return before;
    }

    static final class SimulatorProvider extends Provider {
        private static final long serialVersionUID = 1L;

        SimulatorProvider() {
            super(PROVIDER, "1", "SecureRandom drawing from the running simulated process's seeded stream");
            put("SecureRandom.SimulatedProcess", Spi.class.getName());
        }
    }

    /** Public with a public constructor: the JCA makes it by reflection. */
    public static final class Spi extends SecureRandomSpi {
        private static final long serialVersionUID = 1L;

        /** Inside a run, every process, and the world, has its stream; outside one, the JDK's own generator. */
        private static final SecureRandom OUTSIDE = outside();

        public Spi() {
        }

        private static SecureRandom outside() {
            try {
                return SecureRandom.getInstance("DRBG", "SUN");
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException("the JDK's DRBG is missing", e);
            }
        }

        @Override
        protected void engineSetSeed(byte[] seed) {
            // Seeded by the simulation only.
        }

        @Override
        protected void engineNextBytes(byte[] bytes) {
            Random stream = CURRENT.get();
            if (stream == null) {
                OUTSIDE.nextBytes(bytes); // outside a run (the JDK's temp files, say): the real thing
                return;
            }
            stream.nextBytes(bytes);
        }

        @Override
        protected byte[] engineGenerateSeed(int numBytes) {
            byte[] seed = new byte[numBytes];
            engineNextBytes(seed);
            return seed;
        }
    }
}
