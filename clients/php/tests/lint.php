<?php

// Parses every file of the client as `php -l` does, in one process; exits 1 naming each file that does not parse.

declare(strict_types=1);

$failed = 0;
$files = new RecursiveIteratorIterator(new RecursiveDirectoryIterator(__DIR__ . '/../src', FilesystemIterator::SKIP_DOTS));
foreach ($files as $file) {
    if ($file->getExtension() !== 'php') {
        continue;
    }
    try {
        token_get_all((string) file_get_contents($file->getPathname()), TOKEN_PARSE);
    } catch (ParseError $error) {
        fwrite(STDERR, "{$file->getPathname()}:{$error->getLine()}: {$error->getMessage()}\n");
        $failed++;
    }
}
exit($failed === 0 ? 0 : 1);
