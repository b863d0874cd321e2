package dev.panamax.vulkan;

import dev.panamax.bindgen.importer.HeaderImport;
import dev.panamax.bindgen.importer.ImportOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The annotated vulkan.yaml is what importing vulkan_core.h into it gives: every annotation survives. */
class ReimportTest {
    /** What vulkan.yaml keeps of vulkan_core.h: six functions, the VkResult codes, two structure types, versions, sizes. */
    static final Pattern FILTER = Pattern.compile("^(vkEnumerateInstanceVersion|vkEnumerateInstanceExtensionProperties"
            + "|vkCreateInstance|vkDestroyInstance|vkEnumeratePhysicalDevices|vkGetPhysicalDeviceProperties"
            + "|VK_SUCCESS|VK_NOT_READY|VK_TIMEOUT|VK_EVENT_SET|VK_EVENT_RESET|VK_INCOMPLETE|VK_ERROR_.*"
            + "|VK_THREAD_IDLE_KHR|VK_THREAD_DONE_KHR|VK_OPERATION_DEFERRED_KHR|VK_OPERATION_NOT_DEFERRED_KHR"
            + "|VK_PIPELINE_COMPILE_REQUIRED|VK_API_VERSION_1_[0-3]|VK_STRUCTURE_TYPE_APPLICATION_INFO"
            + "|VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO|VK_MAX_PHYSICAL_DEVICE_NAME_SIZE|VK_MAX_EXTENSION_NAME_SIZE)$");

    @Test
    void importingVulkanCoreAgainChangesNothing(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("vulkan.yaml");
        Files.copy(Path.of("src/main/decl/vulkan.yaml"), file);
        String before = Files.readString(file);
        HeaderImport.Result r = HeaderImport.run(new ImportOptions(List.of(Path.of("/usr/include/vulkan/vulkan_core.h")), "vulkan",
                List.of(), List.of(), FILTER, "dev.panamax.vulkan.binding"), file);
        assertNull(r.problem());
        assertTrue(r.changes().isEmpty(), r.changes().lines().toString());
        assertEquals(before, Files.readString(file));
    }
}
