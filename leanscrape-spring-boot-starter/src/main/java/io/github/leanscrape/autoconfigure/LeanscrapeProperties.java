package io.github.leanscrape.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;
import org.springframework.validation.annotation.Validated;

/**
 * Configuration properties of the leanscrape starter.
 * <p>
 * The properties validate themselves: Spring Boot applies a properties class's own
 * {@link Validator} when it binds it, so a value out of its range stops the application
 * with Spring Boot's failure report (the property, its value and what is allowed) on
 * every class path, with or without a Bean Validation provider.
 *
 * @author leanscrape
 */
@ConfigurationProperties("leanscrape")
@Validated
public class LeanscrapeProperties implements Validator {

	/**
	 * Whether the starter serves the 'prometheus' endpoint. When false, Spring Boot's own
	 * endpoint serves it, unchanged.
	 */
	private boolean enabled = true;

	/**
	 * Most scrape renderings that may run at once, at least 1. Scrapes of the same format
	 * and name filter that overlap share one rendering and do not count twice.
	 */
	private int maxConcurrentRenders = 2;

	/**
	 * How long a scrape may wait for a rendering slot or for a shared rendering when the
	 * request has no X-Prometheus-Scrape-Timeout-Seconds header, or one that is not a
	 * positive number; longer than 0. A scrape that misses its deadline is answered 503.
	 */
	private Duration scrapeTimeout = Duration.ofSeconds(10);

	/**
	 * Longest scrape timeout that an X-Prometheus-Scrape-Timeout-Seconds header may ask
	 * for, at least scrape-timeout.
	 */
	private Duration maxScrapeTimeout = Duration.ofMinutes(2);

	private final Direct direct = new Direct();

	private final Cache cache = new Cache();

	private final Metrics metrics = new Metrics();

	private final Cardinality cardinality = new Cardinality();

	private final Buffer buffer = new Buffer();

	private final Compression compression = new Compression();

	private final Reuse reuse = new Reuse();

	private final Recording recording = new Recording();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getMaxConcurrentRenders() {
		return this.maxConcurrentRenders;
	}

	public void setMaxConcurrentRenders(int maxConcurrentRenders) {
		this.maxConcurrentRenders = maxConcurrentRenders;
	}

	public Duration getScrapeTimeout() {
		return this.scrapeTimeout;
	}

	public void setScrapeTimeout(Duration scrapeTimeout) {
		this.scrapeTimeout = scrapeTimeout;
	}

	public Duration getMaxScrapeTimeout() {
		return this.maxScrapeTimeout;
	}

	public void setMaxScrapeTimeout(Duration maxScrapeTimeout) {
		this.maxScrapeTimeout = maxScrapeTimeout;
	}

	public Cache getCache() {
		return this.cache;
	}

	public Metrics getMetrics() {
		return this.metrics;
	}

	public Cardinality getCardinality() {
		return this.cardinality;
	}

	public Direct getDirect() {
		return this.direct;
	}

	public Buffer getBuffer() {
		return this.buffer;
	}

	public Compression getCompression() {
		return this.compression;
	}

	public Reuse getReuse() {
		return this.reuse;
	}

	public Recording getRecording() {
		return this.recording;
	}

	@Override
	public boolean supports(Class<?> type) {
		// The whole tree at once, where the properties are bound: one report names
		// every property out of its range, by its full name.
		return LeanscrapeProperties.class == type;
	}

	@Override
	public void validate(Object target, Errors errors) {
		LeanscrapeProperties properties = (LeanscrapeProperties) target;
		RangeChecks.atLeast(errors, "max-concurrent-renders", properties.getMaxConcurrentRenders(), 1);
		RangeChecks.positive(errors, "scrape-timeout", properties.getScrapeTimeout());
		if (RangeChecks.positive(errors, "max-scrape-timeout", properties.getMaxScrapeTimeout())
				&& properties.getMaxScrapeTimeout().compareTo(properties.getScrapeTimeout()) < 0) {
			// Reported on the one of the two that was set, so that the report shows the
			// value that was given: the maximum where it was.
			if (RangeChecks.isSet(errors, "max-scrape-timeout")) {
				errors.rejectValue("max-scrape-timeout", "min",
						"must be at least leanscrape.scrape-timeout (" + properties.getScrapeTimeout() + ")");
			}
			else {
				errors.rejectValue("scrape-timeout", "max",
						"must be at most leanscrape.max-scrape-timeout (" + properties.getMaxScrapeTimeout() + ")");
			}
		}
		RangeChecks.notNegative(errors, "cache.time-to-live", properties.getCache().getTimeToLive());
		RangeChecks.atLeast(errors, "cardinality.warn-threshold", properties.getCardinality().getWarnThreshold(), 1);
		RangeChecks.notNegative(errors, "buffer.headroom", properties.getBuffer().getHeadroom());
		RangeChecks.notNegative(errors, "buffer.max-retained", properties.getBuffer().getMaxRetained());
		double maxHeldBodies = properties.getBuffer().getMaxHeldBodies();
		if (maxHeldBodies != 0 && !(maxHeldBodies >= 1 && maxHeldBodies < Double.POSITIVE_INFINITY)) {
			errors.rejectValue("buffer.max-held-bodies", "range",
					"must be 0 (no limit) or a finite number of at least 1");
		}
		RangeChecks.between(errors, "compression.level", properties.getCompression().getLevel(), 1, 9);
		RangeChecks.between(errors, "compression.zstd.level", properties.getCompression().getZstd().getLevel(), 1, 19);
		RangeChecks.atLeast(errors, "recording.max-cached-meters", properties.getRecording().getMaxCachedMeters(), 0);
	}

	/**
	 * Scrape cache settings.
	 */
	public static class Cache {

		/**
		 * How long a rendered body is served again to scrapes of the same format and name
		 * filter; 0 turns the cache off. Cached bodies are dropped when a rendering needs
		 * the memory they hold (see buffer.max-held-bodies).
		 */
		private Duration timeToLive = Duration.ZERO;

		public Duration getTimeToLive() {
			return this.timeToLive;
		}

		public void setTimeToLive(Duration timeToLive) {
			this.timeToLive = timeToLive;
		}

	}

	/**
	 * Cardinality report settings.
	 */
	public static class Cardinality {

		/**
		 * Number of series in one scrape above which a warning is logged, once, pointing
		 * at the 'leanscrape' actuator endpoint; at least 1.
		 */
		private long warnThreshold = 500_000;

		public long getWarnThreshold() {
			return this.warnThreshold;
		}

		public void setWarnThreshold(long warnThreshold) {
			this.warnThreshold = warnThreshold;
		}

	}

	/**
	 * Settings of the starter's own metrics.
	 */
	public static class Metrics {

		/**
		 * Whether the starter records its own work (leanscrape.* meters,
		 * leanscrape.recording.requests included) in the application's meter registry.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * Direct exposition settings.
	 */
	public static class Direct {

		/**
		 * Whether text 0.0.4 and OpenMetrics are written straight from the meters. When
		 * false, every scrape goes through PrometheusRegistry.scrape() and client_java's
		 * writers, as Spring Boot's endpoint does.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * Output buffer settings.
	 */
	public static class Buffer {

		/**
		 * Bytes added to the size of the previous scrape of the same kind (format, name
		 * filter, encoding) when sizing the next one; 0 or more.
		 */
		private DataSize headroom = DataSize.ofKilobytes(16);

		/**
		 * Most memory kept in free output chunks between scrapes; 0 keeps none. What is
		 * kept also follows the size of recent scrapes, so it shrinks when the output
		 * shrinks.
		 */
		private DataSize maxRetained = DataSize.ofMegabytes(64);

		/**
		 * Most memory that scrape bodies (being sent, cached or kept for reuse) and
		 * renderings under way may hold at once, as a multiple of the largest recent
		 * body: 0 (no limit) or at least 1. Beyond it, kept and cached bodies are
		 * dropped, then a rendering waits, and its scrapes are answered 503 when their
		 * timeout passes first.
		 */
		private double maxHeldBodies = 2.5;

		public DataSize getHeadroom() {
			return this.headroom;
		}

		public void setHeadroom(DataSize headroom) {
			this.headroom = headroom;
		}

		public DataSize getMaxRetained() {
			return this.maxRetained;
		}

		public void setMaxRetained(DataSize maxRetained) {
			this.maxRetained = maxRetained;
		}

		public double getMaxHeldBodies() {
			return this.maxHeldBodies;
		}

		public void setMaxHeldBodies(double maxHeldBodies) {
			this.maxHeldBodies = maxHeldBodies;
		}

	}

	/**
	 * Response compression settings.
	 */
	public static class Compression {

		/**
		 * Whether to compress the body when the request accepts gzip (or zstd, when
		 * zstd-jni is on the class path).
		 */
		private boolean enabled = true;

		/**
		 * Deflate level of the gzip body, from 1 (fastest) to 9 (smallest).
		 */
		private int level = 1;

		/**
		 * Zstandard compression, offered when zstd-jni is on the class path.
		 */
		private final Zstd zstd = new Zstd();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getLevel() {
			return this.level;
		}

		public void setLevel(int level) {
			this.level = level;
		}

		public Zstd getZstd() {
			return this.zstd;
		}

		/**
		 * Zstandard compression settings.
		 */
		public static class Zstd {

			/**
			 * Whether to send a zstd body when the request accepts zstd (named in
			 * Accept-Encoding, with a q-value no lower than gzip's) and
			 * com.github.luben:zstd-jni is on the class path.
			 */
			private boolean enabled = true;

			/**
			 * Zstandard level of the zstd body, from 1 (fastest) to 19 (smallest).
			 */
			private int level = 1;

			/**
			 * Whether a zstd body may be sent as a frame per segment, so that segments
			 * that did not change are sent compressed as they were. Off, every zstd body
			 * is one frame: some decoders (python-zstandard's one-shot decompress) read
			 * only the first frame, without an error.
			 */
			private boolean framePerSegment;

			public boolean isFramePerSegment() {
				return this.framePerSegment;
			}

			public void setFramePerSegment(boolean framePerSegment) {
				this.framePerSegment = framePerSegment;
			}

			public boolean isEnabled() {
				return this.enabled;
			}

			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

			public int getLevel() {
				return this.level;
			}

			public void setLevel(int level) {
				this.level = level;
			}

		}

	}

	/**
	 * Settings of the reuse of the last body of each kind.
	 */
	public static class Reuse {

		/**
		 * Whether to keep the last body of each kind (format, name filter), so that
		 * blocks of series whose values did not change are copied rather than formatted
		 * again, and segments whose bytes did not change are sent compressed as they
		 * were. What is kept counts within buffer.max-held-bodies; off, every scrape
		 * formats and compresses the whole body.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * Settings of the meter observation handler that records each observation into meters
	 * resolved once per distinct observation name and low-cardinality key values.
	 */
	public static class Recording {

		/**
		 * Whether the starter's meter observation handler records observations in place
		 * of Micrometer's default one, and its request observation convention derives the
		 * key values of http.server.requests once per combination (Spring MVC and WebFlux
		 * without a convention of their own). When false, Spring Boot's default handler
		 * and convention record them, unchanged.
		 */
		private boolean enabled = true;

		/**
		 * Most meters held by the observation handler's cache (one per observation name
		 * and low-cardinality key values) and most combinations held by the request
		 * convention's cache; 0 caches none. Beyond it, further combinations are recorded
		 * through the meter registry, as Micrometer's default handler does.
		 */
		private int maxCachedMeters = 2000;

		/**
		 * Whether Spring MVC and Spring WebFlux requests are recorded into
		 * http.server.requests without Micrometer's observation when nothing but the
		 * starter's handler would see it (no tracing, other handler, observation filter
		 * or predicate, or custom convention). The same series; takes effect only while
		 * recording is enabled.
		 */
		private boolean directServerRequests = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getMaxCachedMeters() {
			return this.maxCachedMeters;
		}

		public void setMaxCachedMeters(int maxCachedMeters) {
			this.maxCachedMeters = maxCachedMeters;
		}

		public boolean isDirectServerRequests() {
			return this.directServerRequests;
		}

		public void setDirectServerRequests(boolean directServerRequests) {
			this.directServerRequests = directServerRequests;
		}

	}

}
