package io.github.leanscrape.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of the leanscrape starter.
 *
 * @author leanscrape
 */
@ConfigurationProperties("leanscrape")
public class LeanscrapeProperties {

	/**
	 * Whether the starter serves the 'prometheus' endpoint. When false, Spring Boot's own
	 * endpoint serves it, unchanged.
	 */
	private boolean enabled = true;

	private final Buffer buffer = new Buffer();

	private final Compression compression = new Compression();

	private final Recording recording = new Recording();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Buffer getBuffer() {
		return this.buffer;
	}

	public Compression getCompression() {
		return this.compression;
	}

	public Recording getRecording() {
		return this.recording;
	}

	/**
	 * Output buffer settings.
	 */
	public static class Buffer {

		/**
		 * Bytes added to the size of the previous scrape of the same kind (format, name
		 * filter, encoding) when sizing the next one.
		 */
		private DataSize headroom = DataSize.ofKilobytes(16);

		/**
		 * Most memory kept in free output chunks between scrapes. What is kept also
		 * follows the size of recent scrapes, so it shrinks when the output shrinks.
		 */
		private DataSize maxRetained = DataSize.ofMegabytes(64);

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

	}

	/**
	 * Response compression settings.
	 */
	public static class Compression {

		/**
		 * Whether to gzip the body when the request accepts gzip.
		 */
		private boolean enabled = true;

		/**
		 * Deflate level of the gzip body, from 1 (fastest) to 9 (smallest).
		 */
		private int level = 1;

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

	/**
	 * Settings of the meter observation handler that records each observation into meters
	 * resolved once per distinct observation name and low-cardinality key values.
	 */
	public static class Recording {

		/**
		 * Whether the starter's meter observation handler records observations in place of
		 * Micrometer's default one. When false, Spring Boot's default handler records
		 * them, unchanged.
		 */
		private boolean enabled = true;

		/**
		 * Most meters held by the handler's cache: one entry per distinct observation name
		 * and low-cardinality key values, for each timer (with its error value) and each
		 * long task timer. Once full, further combinations are recorded through the
		 * meter registry on every observation, as Micrometer's default handler does.
		 */
		private int maxCachedMeters = 2000;

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

	}

}
