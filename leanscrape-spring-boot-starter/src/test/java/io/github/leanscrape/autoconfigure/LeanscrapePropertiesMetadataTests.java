package io.github.leanscrape.autoconfigure;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.core.ResolvableType;
import org.springframework.util.StringUtils;
import org.springframework.validation.Errors;
import org.springframework.validation.FieldError;
import org.springframework.validation.MapBindingResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every property of {@link LeanscrapeProperties}, found by walking the class as Spring
 * Boot binds it, has IDE metadata (a description, and the default the class really has)
 * in the metadata that the configuration processor generated into the starter's own
 * output, and a row in the README's table of configuration properties. Descriptions are
 * one or two sentences, and the values hinted to an IDE are values the properties accept.
 */
class LeanscrapePropertiesMetadataTests {

	private static final String PREFIX = "leanscrape";

	private static final String METADATA = "META-INF/spring-configuration-metadata.json";

	private static final Pattern README_ROW = Pattern.compile("^\\|\\s*`(leanscrape\\.[^`]+)`\\s*\\|([^|]*)\\|",
			Pattern.MULTILINE);

	private static final Pattern CODE_SPAN = Pattern.compile("`([^`]*)`");

	private static Map<String, Property> properties;

	private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+(?=[A-Z'])");

	private static Map<String, Map<String, Object>> metadata;

	private static Map<String, List<Object>> hints;

	@BeforeAll
	static void load() throws IOException, URISyntaxException {
		properties = new LinkedHashMap<>();
		collect(PREFIX, LeanscrapeProperties.class, new LeanscrapeProperties(), properties);
		metadata = new LinkedHashMap<>();
		hints = new LinkedHashMap<>();
		for (Map<String, Object> hint : readMetadata("$.hints")) {
			List<Object> values = new ArrayList<>();
			for (Map<String, Object> value : JsonPath.<List<Map<String, Object>>>read(hint, "$.values")) {
				values.add(value.get("value"));
			}
			hints.put((String) hint.get("name"), values);
		}
		for (Map<String, Object> property : readMetadata("$.properties")) {
			String name = (String) property.get("name");
			if (name.startsWith(PREFIX + ".")) {
				metadata.put(name, property);
			}
		}
	}

	@Test
	void walksTheWholeClass() {
		// The walk itself must see nested groups, or every other test here is empty.
		assertThat(properties).containsKeys("leanscrape.enabled", "leanscrape.buffer.max-retained",
				"leanscrape.compression.level");
	}

	@Test
	void everyPropertyHasMetadataWithADescription() {
		for (String name : properties.keySet()) {
			assertThat(metadata).as("metadata of %s", name).containsKey(name);
			Object description = metadata.get(name).get("description");
			assertThat(description).as("description of %s", name).isInstanceOf(String.class);
			assertThat(StringUtils.hasText((String) description)).as("description of %s", name).isTrue();
		}
	}

	@Test
	void descriptionsAreOneOrTwoSentences() {
		// Depth goes to docs/: an IDE shows the description in a small pop-up.
		for (String name : properties.keySet()) {
			String description = (String) metadata.get(name).get("description");
			assertThat(SENTENCE_END.split(description)).as("sentences of the description of %s", name)
				.hasSizeLessThanOrEqualTo(2);
		}
	}

	@Test
	void hintsAreValuesThePropertiesAccept() {
		assertThat(hints).as("hints")
			.containsKeys("leanscrape.compression.level", "leanscrape.compression.zstd.level",
					"leanscrape.buffer.max-held-bodies");
		for (Map.Entry<String, List<Object>> hint : hints.entrySet()) {
			String name = hint.getKey();
			assertThat(properties).as("the property of hint %s", name).containsKey(name);
			for (Object value : hint.getValue()) {
				LeanscrapeProperties bound = new LeanscrapeProperties();
				new Binder(new MapConfigurationPropertySource(Map.of(name, String.valueOf(value)))).bind(PREFIX,
						Bindable.ofInstance(bound));
				Errors errors = new MapBindingResult(new LinkedHashMap<>(), PREFIX);
				bound.validate(bound, errors);
				assertThat(errors.getAllErrors()).as("errors of hint %s=%s", name, value).isEmpty();
			}
		}
		// And the validation sees a bad value, so the loop above can fail.
		LeanscrapeProperties bad = new LeanscrapeProperties();
		bad.getCompression().setLevel(10);
		Errors errors = new MapBindingResult(new LinkedHashMap<>(), PREFIX);
		bad.validate(bad, errors);
		assertThat(errors.getFieldErrors()).extracting(FieldError::getField).containsExactly("compression.level");
	}

	@Test
	void metadataHasNoOtherProperty() {
		assertThat(properties.keySet()).containsAll(metadata.keySet());
	}

	@Test
	void metadataDefaultsAreTheClassDefaults() {
		for (Map.Entry<String, Property> entry : properties.entrySet()) {
			String name = entry.getKey();
			Property property = entry.getValue();
			if (!hasDefault(property.value())) {
				continue;
			}
			String metadataDefault = defaultValue(metadata.get(name));
			assertThat(metadataDefault).as("default of %s in the metadata", name).isNotNull();
			assertThat(bind(name, metadataDefault, property)).as("default of %s bound from '%s'", name, metadataDefault)
				.isEqualTo(property.value());
		}
	}

	@Test
	void readmeListsEveryPropertyWithItsDefault() throws IOException {
		Map<String, String> rows = readmeRows();
		for (Map.Entry<String, Property> entry : properties.entrySet()) {
			String name = entry.getKey();
			Property property = entry.getValue();
			assertThat(rows).as("README row of %s", name).containsKey(name);
			if (hasDefault(property.value())) {
				String readmeDefault = rows.get(name);
				assertThat(readmeDefault).as("README default of %s, in a code span", name).isNotNull();
				assertThat(bind(name, readmeDefault, property))
					.as("README default of %s bound from '%s'", name, readmeDefault)
					.isEqualTo(property.value());
			}
		}
		assertThat(properties.keySet()).as("properties in the README").containsAll(rows.keySet());
	}

	private static @Nullable Object bind(String name, String value, Property property) {
		return new Binder(new MapConfigurationPropertySource(Map.of(name, value)))
			.bind(name, Bindable.of(property.type()))
			.orElse(null);
	}

	/**
	 * Walk a configuration properties class as Spring Boot's JavaBean binding does: a
	 * property whose type is one of the starter's own classes is a nested group, any
	 * other property with a setter (or a collection or map) is a leaf.
	 */
	private static void collect(String prefix, Class<?> type, @Nullable Object instance,
			Map<String, Property> properties) {
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
			Method getter = descriptor.getReadMethod();
			if (getter == null || getter.getDeclaringClass() == Object.class) {
				continue;
			}
			String name = prefix + "." + DataObjectPropertyName.toDashedForm(descriptor.getName());
			Class<?> propertyType = descriptor.getPropertyType();
			Object value = (instance != null) ? invoke(getter, instance) : null;
			if (isNestedGroup(propertyType)) {
				collect(name, propertyType, value, properties);
			}
			else if (descriptor.getWriteMethod() != null || Collection.class.isAssignableFrom(propertyType)
					|| Map.class.isAssignableFrom(propertyType)) {
				properties.put(name, new Property(ResolvableType.forMethodReturnType(getter), value));
			}
		}
	}

	private static boolean hasDefault(@Nullable Object value) {
		if (value instanceof Collection<?> collection) {
			return !collection.isEmpty();
		}
		if (value instanceof Map<?, ?> map) {
			return !map.isEmpty();
		}
		return value != null;
	}

	private static boolean isNestedGroup(Class<?> type) {
		return !type.isEnum() && !type.isPrimitive()
				&& type.getName().startsWith(LeanscrapeProperties.class.getPackageName());
	}

	private static @Nullable Object invoke(Method getter, Object instance) {
		try {
			return getter.invoke(instance);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The metadata of the starter's own classes (not of the tests, nor of Spring Boot's
	 * jars): next to the compiled properties class.
	 */
	private static List<Map<String, Object>> readMetadata(String path) throws IOException, URISyntaxException {
		URI location = LeanscrapeProperties.class.getProtectionDomain().getCodeSource().getLocation().toURI();
		URL url = location.toString().endsWith(".jar") ? URI.create("jar:" + location + "!/" + METADATA).toURL()
				: location.resolve(METADATA).toURL();
		try (InputStream in = url.openStream()) {
			return JsonPath.parse(in).read(path);
		}
	}

	private static @Nullable String defaultValue(Map<String, Object> property) {
		Object value = property.get("defaultValue");
		if (value instanceof Collection<?> values) {
			List<String> elements = new ArrayList<>();
			for (Object element : values) {
				elements.add(String.valueOf(element));
			}
			return String.join(",", elements);
		}
		return (value != null) ? String.valueOf(value) : null;
	}

	/**
	 * The rows of the README's tables that document a property: the name in a code span,
	 * then the default, the first code span of the second cell (what follows it, such as
	 * "(off)", is prose), or {@code null} when that cell has none.
	 */
	private static Map<String, String> readmeRows() throws IOException {
		// The project's README, one level above the starter's module.
		Path readme = Path.of(System.getProperty("basedir", "."), "..", "README.md");
		String text = Files.readString(readme, StandardCharsets.UTF_8);
		Map<String, String> rows = new LinkedHashMap<>();
		Matcher matcher = README_ROW.matcher(text);
		while (matcher.find()) {
			Matcher defaultValue = CODE_SPAN.matcher(matcher.group(2));
			rows.put(matcher.group(1), defaultValue.find() ? defaultValue.group(1) : null);
		}
		assertThat(rows).as("property rows in %s", readme).isNotEmpty();
		return rows;
	}

	private record Property(ResolvableType type, @Nullable Object value) {

	}

}
