package io.github.leanscrape.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Properties;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;

/**
 * A Spring MVC application that serves the {@code prometheus} endpoint over
 * {@code demo.series} synthetic series (see {@link DemoMeters}) and a trivial
 * {@code GET /hello}.
 * <p>
 * Its settings live in {@code demo.properties} next to this class, loaded as default
 * properties: every other source (command line, system properties, environment) overrides
 * them, and tests that do not start this application never see them. Run it with
 * {@code ./mvnw spring-boot:test-run}, for example with
 * {@code -Dspring-boot.run.arguments="--server.port=9090 --demo.series=100000"}.
 *
 * @author leanscrape
 */
@SpringBootApplication(proxyBeanMethods = false)
@EnableConfigurationProperties(DemoProperties.class)
public class DemoApplication {

	private static final String DEFAULTS = "io/github/leanscrape/demo/demo.properties";

	/**
	 * Return a builder for the demo application with its default settings.
	 * @param additionalSources further configuration classes, for example a test's
	 * @return the builder
	 */
	public static SpringApplicationBuilder application(Class<?>... additionalSources) {
		return new SpringApplicationBuilder(DemoApplication.class).sources(additionalSources).properties(defaults());
	}

	private static Properties defaults() {
		try {
			return PropertiesLoaderUtils.loadProperties(new ClassPathResource(DEFAULTS));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + DEFAULTS, ex);
		}
	}

	public static void main(String[] args) {
		application().run(args);
	}

}
