package io.github.leanscrape.web;

import io.github.leanscrape.support.ScrapeTestApplication;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * Compressed scrapes with changes between them on Spring MVC, served by Tomcat.
 */
@SpringBootTest(classes = ScrapeTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet", "server.address=127.0.0.1",
				"management.endpoints.web.exposure.include=prometheus", "rich.bulk-series=6000" })
class WebMvcChangingScrapesHttpTests extends AbstractChangingScrapesHttpTests {

}
