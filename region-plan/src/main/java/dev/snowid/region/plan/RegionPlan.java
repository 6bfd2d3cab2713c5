package dev.snowid.region.plan;

import dev.snowid.region.Block;
import dev.snowid.region.Claimant;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The region plan: a SAM CLI configuration file with one environment per stack
 * ({@code sam deploy --config-env <name>}), each stating its region, stack name and, in
 * {@code parameter_overrides}, its block ({@value #DATACENTERS}) and the registry
 * ({@value #REGISTRY_REGION}, {@value #REGISTRY_TABLE}); and one environment named
 * {@value #REGISTRY_ENV} that deploys the registry table. {@link #read} checks it whole: every
 * stack states a block, blocks are disjoint, every stack names the plan's registry.
 */
public final class RegionPlan {

    /** The environment that deploys the registry (infra/registry.yaml). */
    public static final String REGISTRY_ENV = "registry";
    /** The template parameters the plan must state, as infra/template.yaml names them. */
    public static final String DATACENTERS = "Datacenters";
    public static final String REGISTRY_REGION = "RegistryRegion";
    public static final String REGISTRY_TABLE = "RegistryTable";
    /** infra/registry.yaml's parameter: the registry table's name. */
    public static final String TABLE_NAME = "TableName";

    /** One regional stack of the plan. */
    public static final class Stack {
        private final String env;
        private final Claimant claimant;
        private final Block block;
        private final Map<String, String> parameters;

        Stack(String env, Claimant claimant, Block block, Map<String, String> parameters) {
            this.env = env;
            this.claimant = claimant;
            this.block = block;
            this.parameters = Collections.unmodifiableMap(parameters);
        }

        /** The environment's name: {@code sam deploy --config-env <env>}. */
        public String env() {
            return env;
        }

        /** Its region and stack name. */
        public Claimant claimant() {
            return claimant;
        }

        public Block block() {
            return block;
        }

        /** Its lease table, as the template names it: {@code <stack>-leases}. */
        public String leaseTable() {
            return claimant.stack() + "-leases";
        }

        /** Its {@code parameter_overrides}, by name. */
        public Map<String, String> parameters() {
            return parameters;
        }
    }

    private final String source;
    private final List<Stack> stacks;
    private final String registryRegion;
    private final String registryTable;
    private final String registryStack;

    private RegionPlan(String source, List<Stack> stacks, String registryRegion, String registryTable, String registryStack) {
        this.source = source;
        this.stacks = Collections.unmodifiableList(stacks);
        this.registryRegion = registryRegion;
        this.registryTable = registryTable;
        this.registryStack = registryStack;
    }

    /**
     * Reads and checks a plan file.
     *
     * @throws IllegalArgumentException listing every problem, each with its environment and key (or line)
     */
    public static RegionPlan read(Path file) {
        try {
            return parse(file.toString(), new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the region plan " + file + ": " + e.getMessage(), e);
        }
    }

    /** @see #read(Path) */
    public static RegionPlan parse(String source, String text) {
        Map<String, Map<String, Object>> tables = PlanFile.read(source, text);
        List<String> problems = new ArrayList<String>();
        Map<String, Object> registry = tables.get(REGISTRY_ENV + ".deploy.parameters");
        String registryRegion = null;
        String registryTable = null;
        String registryStack = null;
        if (registry == null) {
            problems.add("no [" + REGISTRY_ENV + ".deploy.parameters]: the plan deploys the claim registry (infra/registry.yaml)"
                    + " in its home region from that environment");
        } else {
            registryRegion = text(registry, "region", REGISTRY_ENV, problems);
            registryStack = text(registry, "stack_name", REGISTRY_ENV, problems);
            String table = overrides(registry, REGISTRY_ENV, problems).get(TABLE_NAME);
            registryTable = table == null ? "snowid-registry" : table;
        }
        List<Stack> stacks = new ArrayList<Stack>();
        Map<Block, String> blocks = new LinkedHashMap<Block, String>();
        Map<String, String> claimants = new LinkedHashMap<String, String>();
        for (Map.Entry<String, Map<String, Object>> table : tables.entrySet()) {
            String header = table.getKey();
            if (!header.endsWith(".deploy.parameters") || header.equals(REGISTRY_ENV + ".deploy.parameters")) {
                continue;
            }
            String env = header.substring(0, header.length() - ".deploy.parameters".length());
            Map<String, Object> values = table.getValue();
            String region = text(values, "region", env, problems);
            String stackName = text(values, "stack_name", env, problems);
            Map<String, String> parameters = overrides(values, env, problems);
            Block block = null;
            String datacenters = parameters.get(DATACENTERS);
            if (datacenters == null) {
                problems.add(env + ": parameter_overrides states no " + DATACENTERS + " (every stack states its block; "
                        + Block.ALLOWED + ")");
            } else {
                try {
                    block = Block.parse(datacenters);
                } catch (IllegalArgumentException e) {
                    problems.add(env + ": " + DATACENTERS + " " + e.getMessage());
                }
            }
            if (block != null && blocks.containsKey(block)) {
                problems.add(env + ": " + block + " is " + blocks.get(block) + "'s already; every stack needs a block of its own");
            } else if (block != null) {
                blocks.put(block, env);
            }
            if (registryRegion != null && !registryRegion.equals(parameters.get(REGISTRY_REGION))) {
                problems.add(env + ": " + REGISTRY_REGION + " is " + quoted(parameters.get(REGISTRY_REGION)) + ", not the registry's region '"
                        + registryRegion + "'");
            }
            if (registryTable != null && !registryTable.equals(parameters.get(REGISTRY_TABLE))) {
                problems.add(env + ": " + REGISTRY_TABLE + " is " + quoted(parameters.get(REGISTRY_TABLE)) + ", not the registry's table '"
                        + registryTable + "'");
            }
            if (region == null || stackName == null || block == null) {
                continue;
            }
            Claimant claimant;
            try {
                claimant = Claimant.of(region, stackName);
            } catch (IllegalArgumentException e) {
                problems.add(env + ": " + e.getMessage());
                continue;
            }
            if (claimants.containsKey(claimant.toString())) {
                problems.add(env + ": stack '" + stackName + "' in " + region + " is " + claimants.get(claimant.toString())
                        + " already; two environments would deploy one stack");
            }
            claimants.put(claimant.toString(), env);
            stacks.add(new Stack(env, claimant, block, parameters));
        }
        if (problems.isEmpty() && stacks.isEmpty()) {
            problems.add("no stack: add one [<env>.deploy.parameters] per regional stack");
        }
        if (!problems.isEmpty()) {
            StringBuilder message = new StringBuilder("the region plan " + source + " has " + problems.size()
                    + (problems.size() == 1 ? " problem:" : " problems:"));
            for (String problem : problems) {
                message.append("\n  - ").append(problem);
            }
            throw new IllegalArgumentException(message.toString());
        }
        return new RegionPlan(source, stacks, registryRegion, registryTable, registryStack);
    }

    private static String quoted(String value) {
        return value == null ? "not stated" : "'" + value + "'";
    }

    private static String text(Map<String, Object> values, String key, String env, List<String> problems) {
        Object value = values.get(key);
        if (!(value instanceof String) || ((String) value).trim().isEmpty()) {
            problems.add(env + ": " + key + " is " + (value == null ? "missing" : "not a non-empty string"));
            return null;
        }
        return ((String) value).trim();
    }

    /** {@code parameter_overrides}: {@code "A=1 B=\"two words\""}, or an array of {@code "A=1"}. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> overrides(Map<String, Object> values, String env, List<String> problems) {
        Object value = values.get("parameter_overrides");
        List<String> items = new ArrayList<String>();
        if (value instanceof String) {
            items.addAll(split((String) value));
        } else if (value instanceof List) {
            for (String item : (List<String>) value) {
                items.addAll(split(item));
            }
        } else if (value != null) {
            problems.add(env + ": parameter_overrides is neither a string nor an array of strings");
        }
        Map<String, String> parameters = new LinkedHashMap<String, String>();
        for (String item : items) {
            int equals = item.indexOf('=');
            if (equals <= 0) {
                problems.add(env + ": parameter_overrides holds '" + item + "', not Name=Value");
                continue;
            }
            String name = item.substring(0, equals);
            String text = item.substring(equals + 1);
            if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
                text = text.substring(1, text.length() - 1);
            }
            parameters.put(name, text);
        }
        return parameters;
    }

    /** Splits at spaces outside double quotes. */
    private static List<String> split(String text) {
        List<String> items = new ArrayList<String>();
        StringBuilder item = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            }
            if (Character.isWhitespace(c) && !quoted) {
                if (item.length() > 0) {
                    items.add(item.toString());
                    item.setLength(0);
                }
            } else {
                item.append(c);
            }
        }
        if (item.length() > 0) {
            items.add(item.toString());
        }
        return items;
    }

    /** Where the plan was read from. */
    public String source() {
        return source;
    }

    /** The regional stacks, in the file's order. */
    public List<Stack> stacks() {
        return stacks;
    }

    /** The stack of environment {@code env}. */
    public Stack stack(String env) {
        for (Stack stack : stacks) {
            if (stack.env().equals(env)) {
                return stack;
            }
        }
        List<String> envs = new ArrayList<String>();
        for (Stack stack : stacks) {
            envs.add(stack.env());
        }
        throw new IllegalArgumentException("the region plan " + source + " has no stack '" + env + "'; its stacks are " + envs);
    }

    /** The stack that leases from {@code block}; null when none of the plan does. */
    public Stack stackOf(Block block) {
        for (Stack stack : stacks) {
            if (stack.block() == block) {
                return stack;
            }
        }
        return null;
    }

    public String registryRegion() {
        return registryRegion;
    }

    public String registryTable() {
        return registryTable;
    }

    /** The registry's own stack name (the {@value #REGISTRY_ENV} environment's). */
    public String registryStack() {
        return registryStack;
    }

    /** Environments in the order they deploy: the registry first, then every stack. */
    public List<String> deployOrder() {
        List<String> order = new ArrayList<String>();
        order.add(REGISTRY_ENV);
        for (Stack stack : stacks) {
            order.add(stack.env());
        }
        return order;
    }
}
