package io.github.leanscrape.exposition.direct;

import java.lang.reflect.Field;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Every class and field of Micrometer's Prometheus registry and of client_java that the
 * direct path reads by reflection: {@link MicrometerInternals}, {@link ExemplarLocator}
 * and {@link MeterValues} read them, {@link DirectRendererRuntimeHints} registers them
 * for native images, and the tests check each in every version. Each is looked up once;
 * one not found is {@code null}, logged at debug level, and the work concerned goes to
 * the reference path ({@link FallbackPolicy}).
 *
 * @author leanscrape
 */
enum InternalMember {

	/** The meter registry's collector per Prometheus name. */
	METER_REGISTRY_COLLECTORS(Owners.METER_REGISTRY, "collectorMap", Consequences.SCRAPES),

	/** The meter registry's exemplar sampler factory, {@code null} without tracing. */
	METER_REGISTRY_EXEMPLARS(Owners.METER_REGISTRY, "exemplarSamplerFactory", Consequences.SCRAPES),

	/** The meter registry's configuration. */
	METER_REGISTRY_CONFIG(Owners.METER_REGISTRY, "prometheusConfig", Consequences.SCRAPES),

	/** The Prometheus registry's single collectors. */
	REGISTRY_COLLECTORS(Owners.PROMETHEUS_REGISTRY, "collectors", Consequences.SCRAPES),

	/** The Prometheus registry's multi-collectors, the meter registry's among them. */
	REGISTRY_MULTI_COLLECTORS(Owners.PROMETHEUS_REGISTRY, "multiCollectors", Consequences.SCRAPES),

	/**
	 * The names of the families each multi-collector described when it was registered, by
	 * which the Prometheus registry decides whether a scrape with a name filter collects
	 * it (client_java 1.5 and later).
	 */
	REGISTRY_REGISTRATIONS(Owners.PROMETHEUS_REGISTRY, "multiCollectorMetadata", Consequences.FILTERED_SCRAPES, true),

	/** The family name of one registration. */
	REGISTRATION_NAME(Owners.REGISTRATION, "prometheusName", Consequences.FILTERED_SCRAPES, true),

	/**
	 * The class of the meter registry's collectors (package-private in Micrometer), which
	 * tells them apart from collectors registered by anything else.
	 */
	MICROMETER_COLLECTOR(Owners.MICROMETER_COLLECTOR, null, Consequences.SCRAPES),

	/**
	 * A counter's adder, which its {@code count()} sums: read once per series, so that a
	 * scrape reads the adder without going through the counter.
	 */
	COUNTER_ADDER(Owners.COUNTER, "count", Consequences.COUNTS),

	/** A counter's exemplar sampler. */
	COUNTER_SAMPLER(Owners.COUNTER, "exemplarSampler", Consequences.EXEMPLARS),

	/** A timer's exemplar sampler, when it publishes no Prometheus histogram. */
	TIMER_SAMPLER(Owners.TIMER, "exemplarSampler", Consequences.EXEMPLARS),

	/** A timer's histogram. */
	TIMER_HISTOGRAM(Owners.TIMER, "histogram", Consequences.EXEMPLARS),

	/** A distribution summary's exemplar sampler, when it publishes no histogram. */
	SUMMARY_SAMPLER(Owners.SUMMARY, "exemplarSampler", Consequences.EXEMPLARS),

	/** A distribution summary's histogram. */
	SUMMARY_HISTOGRAM(Owners.SUMMARY, "histogram", Consequences.EXEMPLARS),

	/** The exemplar sampler of a Prometheus histogram (package-private in Micrometer). */
	HISTOGRAM_SAMPLER(Owners.PROMETHEUS_HISTOGRAM, "exemplarSampler", Consequences.EXEMPLARS),

	/** The exemplars a client_java sampler holds, one slot per bucket. */
	SAMPLED_EXEMPLARS(Owners.EXEMPLAR_SAMPLER, "exemplars", Consequences.EXEMPLARS),

	/** The exemplars set explicitly on a client_java sampler. */
	CUSTOM_EXEMPLARS(Owners.EXEMPLAR_SAMPLER, "customExemplars", Consequences.EXEMPLARS),

	/** A client_java sampler's configuration. */
	SAMPLER_CONFIG(Owners.EXEMPLAR_SAMPLER, "config", Consequences.EXEMPLARS);

	private final String ownerName;

	private final @Nullable String fieldName;

	private final @Nullable Class<?> owner;

	private final @Nullable Field field;

	private final boolean describedFamiliesOnly;

	InternalMember(String ownerName, @Nullable String fieldName, String consequence) {
		this(ownerName, fieldName, consequence, false);
	}

	InternalMember(String ownerName, @Nullable String fieldName, String consequence, boolean describedFamiliesOnly) {
		this.ownerName = ownerName;
		this.fieldName = fieldName;
		this.describedFamiliesOnly = describedFamiliesOnly;
		this.owner = load(ownerName, consequence);
		this.field = (this.owner != null && fieldName != null) ? field(this.owner, fieldName, consequence) : null;
	}

	/**
	 * Return the name of the class that declares the member, or of the class itself.
	 * @return the class's name
	 */
	String ownerName() {
		return this.ownerName;
	}

	/**
	 * Return the name of the field, or {@code null} when the member is a class.
	 * @return the field's name
	 */
	@Nullable String fieldName() {
		return this.fieldName;
	}

	/**
	 * Return whether the member exists only in the client_java versions whose collectors
	 * describe their families (1.5 and later; Spring Boot 4.0 manages 1.4).
	 * @return {@code true} when older versions do not have it
	 */
	boolean isOnlyWhereCollectorsDescribeFamilies() {
		return this.describedFamiliesOnly;
	}

	/**
	 * Return the class, or {@code null} when it cannot be found.
	 * @return the class
	 */
	@Nullable Class<?> owner() {
		return this.owner;
	}

	/**
	 * Return the field, made accessible, or {@code null} when it cannot be read (or when
	 * the member is a class).
	 * @return the field
	 */
	@Nullable Field field() {
		return this.field;
	}

	/**
	 * Return whether the member is where it was expected.
	 * @return {@code true} when its class, and its field if it names one, were found
	 */
	boolean isFound() {
		return this.owner != null && (this.fieldName == null || this.field != null);
	}

	/**
	 * Read the field of an object.
	 * @param target the object, or {@code null}
	 * @return the value, or {@code null} when it cannot be read
	 */
	@Nullable Object get(@Nullable Object target) {
		Field field = this.field;
		if (field == null || target == null) {
			return null;
		}
		try {
			return field.get(target);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Read the field of an object, telling a value of {@code null} from a read that
	 * failed.
	 * @param target the object, or {@code null}
	 * @return the value, or a value that {@link #isUnreadable} tells apart when it cannot
	 * be read
	 */
	@Nullable Object read(@Nullable Object target) {
		Field field = this.field;
		if (field == null || target == null) {
			return Unreadable.VALUE;
		}
		try {
			return field.get(target);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return Unreadable.VALUE;
		}
	}

	/**
	 * Return whether a value that {@link #read} returned stands for a read that failed.
	 * @param value the value
	 * @return {@code true} when the field could not be read
	 */
	static boolean isUnreadable(@Nullable Object value) {
		return value == Unreadable.VALUE;
	}

	private static @Nullable Class<?> load(String name, String consequence) {
		try {
			return Class.forName(name, false, PrometheusMeterRegistry.class.getClassLoader());
		}
		catch (ClassNotFoundException | LinkageError ex) {
			log().debug("Cannot find " + name + "; " + consequence, ex);
			return null;
		}
	}

	private static @Nullable Field field(Class<?> owner, String name, String consequence) {
		try {
			Field field = owner.getDeclaredField(name);
			field.setAccessible(true);
			return field;
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			log().debug("Cannot read " + owner.getName() + "." + name + "; " + consequence, ex);
			return null;
		}
	}

	private static Log log() {
		// Not a static field: the constants are made, and may log, before the enum's
		// static fields are set.
		return LogFactory.getLog(InternalMember.class);
	}

	/**
	 * What {@link #read} returns for a read that failed: not a constant of the enum,
	 * whose constants are made before its static fields.
	 */
	private static final class Unreadable {

		static final Object VALUE = new Object();

	}

	/**
	 * The classes that declare the members.
	 */
	private static final class Owners {

		static final String METER_REGISTRY = "io.micrometer.prometheusmetrics.PrometheusMeterRegistry";

		static final String MICROMETER_COLLECTOR = "io.micrometer.prometheusmetrics.MicrometerCollector";

		static final String COUNTER = "io.micrometer.prometheusmetrics.PrometheusCounter";

		static final String TIMER = "io.micrometer.prometheusmetrics.PrometheusTimer";

		static final String SUMMARY = "io.micrometer.prometheusmetrics.PrometheusDistributionSummary";

		static final String PROMETHEUS_HISTOGRAM = "io.micrometer.prometheusmetrics.PrometheusHistogram";

		static final String PROMETHEUS_REGISTRY = "io.prometheus.metrics.model.registry.PrometheusRegistry";

		static final String REGISTRATION = "io.prometheus.metrics.model.registry.PrometheusRegistry$MultiCollectorRegistration";

		static final String EXEMPLAR_SAMPLER = "io.prometheus.metrics.core.exemplars.ExemplarSampler";

	}

	/**
	 * What follows when a member is missing, for the log.
	 */
	private static final class Consequences {

		static final String SCRAPES = "the reference path serves scrapes";

		static final String EXEMPLARS = "exemplars take the reference path";

		static final String COUNTS = "scrapes read each counter's count through the counter";

		static final String FILTERED_SCRAPES = "scrapes with a name filter tell by the names collectors give which to write";

	}

}
