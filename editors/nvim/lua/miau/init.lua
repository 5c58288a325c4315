-- Neovim support for Miau packs: filetype, comment string, and the miauc
-- language server. Usage (Neovim 0.11+):
--   require('miau').setup({ cmd = { 'miauc', 'lsp' } })
local M = {}

M.defaults = {
  cmd = { 'miauc', 'lsp' },
  root_markers = { '.git', 'packs' },
}

--- Register the filetype and start `miauc lsp` for every .miau buffer.
function M.setup(opts)
  opts = vim.tbl_deep_extend('force', M.defaults, opts or {})
  vim.filetype.add({ extension = { miau = 'miau' } })
  vim.api.nvim_create_autocmd('FileType', {
    pattern = 'miau',
    callback = function(args)
      vim.bo[args.buf].commentstring = '// %s'
      local root = vim.fs.root(args.buf, opts.root_markers) or vim.fn.getcwd()
      vim.lsp.start({
        name = 'miau',
        cmd = opts.cmd,
        root_dir = root,
      }, { bufnr = args.buf })
    end,
  })
end

return M
