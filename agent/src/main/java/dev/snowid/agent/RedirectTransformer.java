package dev.snowid.agent;

import static net.bytebuddy.matcher.ElementMatchers.is;
import static net.bytebuddy.matcher.ElementMatchers.named;

import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.utility.JavaModule;

/**
 * Applies the redirect advice to the target methods of one class, choosing the advice by return
 * type, and tells the {@link TargetReport} what it did and what it refused (wrong return type,
 * abstract or native method, no method of that name).
 */
final class RedirectTransformer implements AgentBuilder.Transformer {

    private final Map<String, List<Target>> targetsByClass = new HashMap<>();
    private final TargetReport report;

    RedirectTransformer(List<Target> targets, TargetReport report) {
        for (Target target : targets) {
            List<Target> ofClass = targetsByClass.get(target.className());
            if (ofClass == null) {
                ofClass = new ArrayList<>();
                targetsByClass.put(target.className(), ofClass);
            }
            ofClass.add(target);
        }
        this.report = report;
    }

    @Override
    public DynamicType.Builder<?> transform(DynamicType.Builder<?> builder, TypeDescription type, ClassLoader loader,
                                            JavaModule module, ProtectionDomain protectionDomain) {
        List<Target> targets = targetsByClass.get(type.getName());
        if (targets == null) {
            return builder;
        }
        for (Target target : targets) {
            MethodList<MethodDescription.InDefinedShape> methods = type.getDeclaredMethods().filter(named(target.methodName()));
            if (methods.isEmpty()) {
                report.cannotRedirect(target, type.getName() + " (in " + TargetReport.describe(loader) + ") declares no method named '"
                        + target.methodName() + "' (inherited methods are redirected in the class that declares them)");
            }
            for (MethodDescription.InDefinedShape method : methods) {
                builder = redirect(builder, target, method, loader);
            }
        }
        return builder;
    }

    private DynamicType.Builder<?> redirect(DynamicType.Builder<?> builder, Target target,
                                            MethodDescription.InDefinedShape method, ClassLoader loader) {
        String where = signature(method) + " in " + TargetReport.describe(loader);
        ReturnKind kind = ReturnKind.of(method.getReturnType().asErasure());
        if (kind == null) {
            report.cannotRedirect(target, where + " returns " + method.getReturnType().asErasure().getName()
                    + "; allowed return types: " + ReturnKind.ALLOWED);
            return builder;
        }
        if (method.isAbstract() || method.isNative()) {
            report.cannotRedirect(target, where + " has no body to replace (abstract or native); name the class that implements it");
            return builder;
        }
        report.willRedirect(target, "redirected " + where + " to the snowid generator");
        return builder.visit(kind.advice().on(is(method)));
    }

    private static String signature(MethodDescription method) {
        StringBuilder text = new StringBuilder(method.getReturnType().asErasure().getSimpleName()).append(' ')
                .append(method.getDeclaringType().asErasure().getName()).append('#').append(method.getName()).append('(');
        for (int i = 0; i < method.getParameters().size(); i++) {
            text.append(i == 0 ? "" : ", ").append(method.getParameters().get(i).getType().asErasure().getSimpleName());
        }
        return text.append(')').toString();
    }

    /** Reports what the transformer did once Byte Buddy has confirmed (or failed) the transformation. */
    static final class Reporting extends AgentBuilder.Listener.Adapter {
        private final TargetReport report;

        Reporting(TargetReport report) {
            this.report = report;
        }

        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                                     DynamicType dynamicType) {
            report.transformed();
        }

        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable error) {
            report.failed(typeName, loader, error);
        }

        @Override
        public void onComplete(String typeName, ClassLoader loader, JavaModule module, boolean loaded) {
            report.clear();
        }
    }
}
