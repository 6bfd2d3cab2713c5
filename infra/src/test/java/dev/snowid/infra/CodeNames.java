package dev.snowid.infra;

import dev.snowid.SnowflakeCodec;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.local.LocalSettings;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The names the template must follow, read from the code itself: the settings catalogues of the
 * function and the local runner, and the lease table's schema (by reflection over its constants),
 * so a name added to the code is seen without touching this class.
 *
 * @param keyAttribute     the table's partition key
 * @param ttlAttribute     the attribute DynamoDB TTL reads
 * @param attributes       every attribute name the store uses
 * @param actionsUsed      the DynamoDB API actions the store calls
 * @param functionVariables every environment variable the function reads that a deployment sets
 *                         ({@code SNOWID_*})
 * @param localOnlyVariables variables the template must not set: the local engine's endpoint and
 *                         the local runner's own settings ({@code LocalSettings.CATALOGUE})
 * @param runtimeVariables  variables the Lambda runtime sets ({@code AWS_*}); reserved
 * @param epochMillis       the epoch IDs are issued with
 * @param handler           the function's entry point, as the template's Handler names it
 */
record CodeNames(String keyAttribute, String ttlAttribute, Set<String> attributes, Set<String> actionsUsed,
        Set<String> functionVariables, Set<String> localOnlyVariables, Set<String> runtimeVariables,
        long epochMillis, String handler) {

    /** {@code dev.snowid.lambda.SnowidHandler}, a RequestStreamHandler (payload 1.0 and 2.0). */
    static final String HANDLER_CLASS = "dev.snowid.lambda.SnowidHandler";
    static final String HANDLER_METHOD = "handleRequest";
    /** The bearer-mode authorizer in front of the lease routes, a RequestStreamHandler too. */
    static final String AUTHORIZER_CLASS = dev.snowid.lambda.LeaseAuthorizerHandler.class.getName();
    /** The authorizer's entry point, as the template's Handler names it. */
    static final String AUTHORIZER_HANDLER = AUTHORIZER_CLASS + "::" + HANDLER_METHOD;
    /** The settings the authorizer reads: the current and the next secret's hash, nothing else. */
    static final Set<String> AUTHORIZER_VARIABLES = Set.of(FunctionSettings.LEASE_SECRET_SHA256, FunctionSettings.LEASE_SECRET_NEXT_SHA256);

    static CodeNames fromCode() {
        // The function's catalogue, and the runner's: its SNOWID_* variables are the function's process too, local only.
        Set<String> variables = new LinkedHashSet<>(FunctionSettings.CATALOGUE.names());
        Set<String> localOnly = new LinkedHashSet<>();
        localOnly.add(FunctionSettings.DYNAMODB_ENDPOINT);
        localOnly.add(FunctionSettings.REGISTRY_ENDPOINT);
        for (String runner : LocalSettings.CATALOGUE.names()) {
            if (runner.startsWith("SNOWID_")) {
                variables.add(runner);
                localOnly.add(runner);
            }
        }
        return new CodeNames(
                LeaseTableSchema.SLOT,
                LeaseTableSchema.TTL,
                new LinkedHashSet<>(stringConstants(LeaseTableSchema.class).values()),
                new LinkedHashSet<>(LeaseTableSchema.ACTIONS_USED),
                variables,
                localOnly,
                new LinkedHashSet<>(FunctionSettings.RUNTIME_VARIABLES),
                SnowflakeCodec.TWITTER_EPOCH_MILLIS,
                HANDLER_CLASS + "::" + HANDLER_METHOD);
    }

    /** The same names with the TTL attribute renamed: code that moved on without the template. */
    CodeNames withTtlAttribute(String renamed) {
        return new CodeNames(keyAttribute, renamed, replace(attributes, ttlAttribute, renamed), actionsUsed,
                functionVariables, localOnlyVariables, runtimeVariables, epochMillis, handler);
    }

    CodeNames withKeyAttribute(String renamed) {
        return new CodeNames(renamed, ttlAttribute, replace(attributes, keyAttribute, renamed), actionsUsed,
                functionVariables, localOnlyVariables, runtimeVariables, epochMillis, handler);
    }

    CodeNames withActionsUsed(List<String> actions) {
        return new CodeNames(keyAttribute, ttlAttribute, attributes, new LinkedHashSet<>(actions),
                functionVariables, localOnlyVariables, runtimeVariables, epochMillis, handler);
    }

    CodeNames withFunctionVariable(String added) {
        Set<String> more = new LinkedHashSet<>(functionVariables);
        more.add(added);
        return new CodeNames(keyAttribute, ttlAttribute, attributes, actionsUsed, more, localOnlyVariables,
                runtimeVariables, epochMillis, handler);
    }

    /** The public static final String fields, by field name. */
    private static Map<String, String> stringConstants(Class<?> type) {
        Map<String, String> values = new LinkedHashMap<>();
        for (Field field : type.getFields()) {
            int modifiers = field.getModifiers();
            if (Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers) && field.getType() == String.class) {
                try {
                    values.put(field.getName(), (String) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return values;
    }

    private static Set<String> replace(Set<String> names, String old, String renamed) {
        Set<String> replaced = new LinkedHashSet<>();
        names.forEach(name -> replaced.add(name.equals(old) ? renamed : name));
        return replaced;
    }
}
