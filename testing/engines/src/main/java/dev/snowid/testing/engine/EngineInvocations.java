package dev.snowid.testing.engine;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeClassTemplateInvocationCallback;
import org.junit.jupiter.api.extension.ClassTemplateInvocationContext;
import org.junit.jupiter.api.extension.ClassTemplateInvocationContextProvider;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * One run of an {@link OnEveryEngine} (or {@link OnMoto}) class per engine. Each run gets
 * parameters from its own engine; engines start when their run begins.
 */
final class EngineInvocations implements ClassTemplateInvocationContextProvider {

    /**
     * Set on a second pass of a module's tests on another JDK (lambda on JDK 25 in CI): the first pass
     * ran every engine; this one runs the shared engine only, and says so.
     */
    static final String SHARED_ENGINE_ONLY = "snowid.test.sharedEngineOnly";

    @Override
    public boolean supportsClassTemplate(ExtensionContext context) {
        return true;
    }

    @Override
    public boolean mayReturnZeroClassTemplateInvocationContexts(ExtensionContext context) {
        return true; // @OnMoto without moto: nothing runs, and the run says so
    }

    @Override
    public Stream<ClassTemplateInvocationContext> provideClassTemplateInvocationContexts(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        boolean motoOnly = AnnotationSupport.isAnnotated(testClass, OnMoto.class);
        Stream<ClassTemplateInvocationContext> first = motoOnly ? Stream.empty()
                : Stream.of(new OnEngine(DynamoDbEngine::shared, DynamoDbEngine.shared().name()));
        if (Boolean.getBoolean(SHARED_ENGINE_ONLY)) {
            System.out.println("[snowid] " + testClass.getSimpleName() + ": the moto pass DID NOT RUN in this pass (" + SHARED_ENGINE_ONLY
                    + ": a second JDK's pass; the first pass ran it)" + (motoOnly ? "." : "; it ran on " + DynamoDbEngine.shared().name() + " only."));
            return first;
        }
        boolean racesWriters = AnnotationSupport.findAnnotation(testClass, OnEveryEngine.class)
                .map(OnEveryEngine::racesWriters).orElse(false);
        if (racesWriters) {
            System.out.println("[snowid] " + testClass.getSimpleName() + " DID NOT RUN on moto (it races writers on one item): "
                    + DynamoDbEngine.MOTO_RACES);
            return first;
        }
        if (MotoServer.find().isPresent()) {
            return Stream.concat(first, Stream.of(new OnEngine(DynamoDbEngine::moto, "moto")));
        }
        String missing = testClass.getSimpleName() + ": the moto pass DID NOT RUN: no " + MotoServer.COMMAND + " on PATH ("
                + MotoServer.HOW_TO_INSTALL + ")";
        if (MotoServer.required()) {
            throw new IllegalStateException(missing + ", and " + MotoServer.REQUIRED_VARIABLE + "=1 requires it");
        }
        System.out.println("[snowid] " + missing + (motoOnly ? "." : "; it ran on " + DynamoDbEngine.shared().name() + " only."));
        return first;
    }

    /** One run of the class on one engine. */
    private static final class OnEngine implements ClassTemplateInvocationContext {

        private final Supplier<DynamoDbEngine.Running> engine;
        private final String label;

        OnEngine(Supplier<DynamoDbEngine.Running> engine, String label) {
            this.engine = engine;
            this.label = label;
        }

        @Override
        public String getDisplayName(int invocationIndex) {
            return "on " + label;
        }

        @Override
        public List<Extension> getAdditionalExtensions() {
            return List.of(new EngineParameters(engine));
        }
    }

    /**
     * Starts the run's engine, hands out its tables, and names the engine when a test fails
     * (the test report numbers the runs: [1], [2]).
     */
    private static final class EngineParameters implements BeforeClassTemplateInvocationCallback, ParameterResolver, TestWatcher {

        private final Supplier<DynamoDbEngine.Running> engine;

        EngineParameters(Supplier<DynamoDbEngine.Running> engine) {
            this.engine = engine;
        }

        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            System.out.println("[snowid] FAILED on " + engine.get().name() + ": " + context.getRequiredTestClass().getSimpleName()
                    + "." + context.getDisplayName() + ": " + cause);
        }

        @Override
        public void beforeClassTemplateInvocation(ExtensionContext context) {
            // The console's test summary names the class only: say which engine this run is on.
            System.out.println("[snowid] " + context.getRequiredTestClass().getSimpleName() + " on " + engine.get().name());
            DynamoDbEngine.stopAtTheEnd(context);
        }

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            Class<?> type = parameter.getParameter().getType();
            return type == TestTable.class || type == DynamoDbEngine.Running.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            if (parameter.getParameter().getType() == DynamoDbEngine.Running.class) {
                return engine.get();
            }
            String owner = context.getTestMethod().map(m -> m.getName())
                    .orElseGet(() -> context.getRequiredTestClass().getSimpleName());
            return engine.get().newTable(owner);
        }
    }
}
