package dev.snowid.spring.autoconfigure;

import dev.snowid.internal.SettingCatalogue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The {@code snowid.*} properties of the environment that the starter does not read, as Spring
 * Boot sees them (a properties file, YAML, {@code SNOWID_*} variables, {@code -D}): Spring ignores
 * them silently, so a typo would keep a default or leave a required property unset. Compared as
 * Spring binds them ({@code wait-for-slot} = {@code waitForSlot}); the names, never the values.
 * An environment variable is shared by every process started from the same shell (the local
 * runner's {@code SNOWID_PORT}, a build's own {@code SNOWID_*}), so one counts only when it is
 * close to a property the starter reads: a typo, not another program's setting.
 */
final class UnknownProperties {

    private static final SettingCatalogue CATALOGUE = SnowidSetting.CATALOGUE;

    /** Each unknown name, with where it was set (a file and line, an environment variable) when Spring knows. */
    private final Map<String, String> unknown;

    private UnknownProperties(Map<String, String> unknown) {
        this.unknown = unknown;
    }

    static UnknownProperties in(Environment environment) {
        Map<String, String> unknown = new TreeMap<>();
        if (!(environment instanceof ConfigurableEnvironment)) {
            return new UnknownProperties(unknown);
        }
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource)) {
                continue;
            }
            for (ConfigurationPropertyName name : (IterableConfigurationPropertySource) source) {
                String text = name.toString();
                if (text.startsWith(SnowidProperties.PREFIX + ".") && !read(text) && !unknown.containsKey(text)
                        && (!fromEnvironmentVariables(source) || CATALOGUE.closest(text, CATALOGUE.names()) != null)) {
                    ConfigurationProperty property = source.getConfigurationProperty(name);
                    Origin origin = property == null ? null : property.getOrigin();
                    unknown.put(text, origin == null ? "" : " (set in " + origin + ")");
                }
            }
        }
        return new UnknownProperties(unknown);
    }

    private static boolean fromEnvironmentVariables(ConfigurationPropertySource source) {
        return source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
    }

    /** One warning per unknown name, with the closest property the starter reads. */
    List<String> warnings() {
        List<String> warnings = new ArrayList<>();
        unknown.forEach((name, origin) -> warnings.add(CATALOGUE.unknown("property", name, CATALOGUE.names()) + origin));
        return Collections.unmodifiableList(warnings);
    }

    /** {@code "snowid.lease.ulr is set … did you mean `snowid.lease.url`?"} for an unset {@code setting}; null when no unknown name is close. */
    String meant(SnowidSetting setting) {
        for (Map.Entry<String, String> name : unknown.entrySet()) {
            if (setting.property().equals(CATALOGUE.closest(name.getKey(), CATALOGUE.names()))) {
                return name.getKey() + " is set" + name.getValue() + ", which is not a setting of the starter; did you mean `"
                        + setting.property() + "`?";
            }
        }
        return null;
    }

    /** Whether the starter reads {@code name}: Spring binds {@code wait-for-slot}, {@code waitforslot} and {@code waitForSlot} alike. */
    private static boolean read(String name) {
        for (String known : CATALOGUE.names()) {
            if (dashless(known).equals(dashless(name))) {
                return true;
            }
        }
        return false;
    }

    private static String dashless(String name) {
        return name.replace("-", "").toLowerCase(Locale.ROOT);
    }
}
